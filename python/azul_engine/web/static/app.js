// The page's only script: it sends what was tapped to the server and shows what comes back. No rule of the
// game is here: every check, score and legal move is the engine's, on the server.
"use strict";

// A selector for the control that was used, to give it the focus back once the page part is redrawn (else the
// focus would fall back to the top of the page after every action).
function focusKey(el) {
  if (el.id) return "#" + CSS.escape(el.id);
  let key = "[data-post=\"" + CSS.escape(el.dataset.post) + "\"]";
  if (el.dataset.json) key += "[data-json=\"" + CSS.escape(el.dataset.json) + "\"]";
  return key;
}

async function post(url, body, focus) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify(body), credentials: "same-origin"});
  let data;
  try { data = await r.json(); } catch (e) { data = {error: r.status + " " + r.statusText}; }
  if (data.html !== undefined) {
    document.getElementById("main").innerHTML = data.html;
    const again = focus && document.querySelector(focus);
    if (again && !again.disabled) again.focus({preventScroll: true});
    else if (focus) document.getElementById("main").focus({preventScroll: true});
  }
  const msg = document.getElementById("msg");
  msg.textContent = data.error || data.note || "";
  msg.className = data.error ? "msg error" : "msg note";
  msg.hidden = !(data.error || data.note);
  document.body.dataset.busy = "0";
}

document.addEventListener("click", async (ev) => {
  const wait = ev.target.closest("a[data-wait]");  // a slow download: say what is happening meanwhile
  if (wait) {
    const msg = document.getElementById("msg");
    msg.textContent = wait.dataset.wait;
    msg.className = "msg note";
    msg.hidden = false;
    return;
  }
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
  await post(el.dataset.post, body, document.activeElement === el ? focusKey(el) : null);
});

document.addEventListener("change", (ev) => {
  if (ev.target.id === "lang") {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", ev.target.value);
    window.location.href = url.toString();
  }
});

// The replay page: the arrow keys step, Home and End jump (as in the HTML replay files), unless typing.
document.addEventListener("keydown", (ev) => {
  const to = {ArrowLeft: "rp-prev", ArrowRight: "rp-next", Home: "rp-first", End: "rp-last"}[ev.key];
  if (!to || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
  const button = document.getElementById(to);
  if (!button || button.disabled) return;
  ev.preventDefault();
  button.click();
});
