// The page's only script: it sends what was tapped to the server and shows what comes back. No rule of the
// game is here: every check, score and legal move is the engine's, on the server.
"use strict";

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body), credentials: "same-origin"});
  let data;
  try { data = await r.json(); } catch (e) { data = {error: r.status + " " + r.statusText}; }
  if (data.html !== undefined) document.getElementById("main").innerHTML = data.html;
  const msg = document.getElementById("msg");
  msg.textContent = data.error || data.note || "";
  msg.className = data.error ? "msg error" : "msg note";
  msg.hidden = !(data.error || data.note);
  document.body.dataset.busy = "0";
}

document.addEventListener("click", async (ev) => {
  const el = ev.target.closest("[data-post]");
  if (!el || el.disabled) return;
  ev.preventDefault();
  if (el.dataset.confirm && !window.confirm(el.dataset.confirm)) return;  // e.g. a new sheet wipes this one
  document.body.dataset.busy = "1";
  const body = el.dataset.json ? JSON.parse(el.dataset.json) : {};
  if (el.dataset.form) {
    const form = document.getElementById(el.dataset.form);
    if (form) for (const [k, v] of new FormData(form)) if (typeof v === "string") body[k] = v;
  }
  if (el.dataset.file) {
    const input = document.getElementById(el.dataset.file);
    if (input && input.files.length) body.text = await input.files[0].text();
  }
  await post(el.dataset.post, body);
});

document.addEventListener("change", (ev) => {
  if (ev.target.id === "lang") {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", ev.target.value);
    window.location.href = url.toString();
  }
});
