// The page's only script: it sends what was tapped to the server and shows what comes back. No rule of the
// game is here: every check, score and legal move is the engine's, on the server.
"use strict";

// A selector for the control that was used, to give it the focus back once the page part is redrawn (else the
// focus would fall back to the top of the page after every action): its id, its data-key (a control whose
// data-json changes with each press: a stepper, a toggle), or what it posts.
function focusKey(el) {
  if (el.id) return "#" + CSS.escape(el.id);
  if (el.dataset.key) return "[data-key=\"" + CSS.escape(el.dataset.key) + "\"]";
  let key = "[data-post=\"" + CSS.escape(el.dataset.post) + "\"]";
  if (el.dataset.json) key += "[data-json=\"" + CSS.escape(el.dataset.json) + "\"]";
  return key;
}

// Where the focus goes after a press: the first of the control's data-next (the next step: after tiles are
// chosen, the pattern lines) that is on the page, else the control itself again.
function focusAfter(el) {
  const next = el.dataset.next ? [el.dataset.next] : [];
  return next.concat([focusKey(el)]);
}

// What the pickers marked data-keep show (a colour, a number of wild tiles): the page part is redrawn after
// every tap, and a picker set for the next tiles must not go back to its first choice each time.
function keptForms() {
  const kept = {};
  for (const form of document.querySelectorAll("form[data-keep][id]")) {
    kept[form.id] = [...form.elements].filter((e) => e.name).map((e) => [e.name, e.type, e.value, e.checked]);
  }
  return kept;
}

function restoreForms(kept) {
  for (const [id, fields] of Object.entries(kept)) {
    const form = document.getElementById(id);
    if (!form) continue;
    for (const [name, type, value, checked] of fields) {
      for (const e of form.elements) {
        if (e.name !== name) continue;
        if (type === "radio" || type === "checkbox") { if (e.value === value) e.checked = checked; }
        else e.value = value;
      }
    }
  }
}

// The page's requests say they are its own (X-Azul-Page): the app then answers a refusal (a tap the rules refuse,
// a wall that is not one) with 200 and its message, which the browser does not log as a failed request.
const HEADERS = {"Content-Type": "application/json", "X-Azul-Page": "1"};

async function post(url, body, focus) {
  const r = await fetch(url, {method: "POST", headers: HEADERS, body: JSON.stringify(body),
                               credentials: "same-origin"});
  let data;
  try { data = await r.json(); } catch (e) { data = {error: r.status + " " + r.statusText}; }
  if (data.html !== undefined) {
    const kept = keptForms();
    document.getElementById("main").innerHTML = data.html;
    restoreForms(kept);
    showSeats();
    const found = (focus || []).map((key) => document.querySelector(key));
    const again = found.findIndex((e) => e && !e.disabled);
    // The control pressed stays where it was; a next step is scrolled to if it is off the screen (the end of
    // a game, below the rounds of a long sheet).
    if (again >= 0) found[again].focus({preventScroll: again === found.length - 1});
    else if (focus) document.getElementById("main").focus({preventScroll: true});
  }
  say(data.error || data.note || "", Boolean(data.error));
  document.body.dataset.busy = "0";
}

// What the app answers, in the bar at the bottom of the screen: a refusal in #alert (role alert), a note in #msg
// (role status); both are live regions from the start, so that a screen reader says what appears in them.
function say(text, error) {
  document.getElementById("alert").textContent = error ? text : "";
  document.getElementById("msg").textContent = error ? "" : text;
}

// A new sheet's or game's seats: as many as the players chosen (the others' names are not asked for).
function showSeats() {
  for (const select of document.querySelectorAll("select[data-seats]")) {
    const form = document.getElementById(select.dataset.seats);
    for (const row of form.querySelectorAll("[data-seat]")) row.hidden = Number(row.dataset.seat) >= Number(select.value);
  }
}

// A download that needs a search first (the record of a score sheet): ask the server where the search stands
// until it is done, with a progress bar and a line saying what it has matched, then download (or say plainly
// that nothing was found). The search is bounded on the server.
async function searchThenDownload(link) {
  if (document.body.dataset.busy === "1") return;
  document.body.dataset.busy = "1";
  const bar = document.getElementById("record-progress");
  try {
    for (;;) {
      const r = await fetch(link.dataset.progress, {method: "POST", headers: HEADERS, body: "{}",
                                                   credentials: "same-origin"});
      let data;
      try { data = await r.json(); } catch (e) { data = {error: r.status + " " + r.statusText}; }
      if (data.error) { say(data.error, true); break; }
      if (bar) {
        bar.hidden = data.record !== "searching";
        if (data.limit) bar.max = data.limit;
        if (data.seconds !== undefined) bar.value = data.seconds;
      }
      if (data.record === "found") { say(data.text, false); window.location.href = data.url; break; }
      if (data.record === "none") { say(data.text, true); break; }
      say(data.text, false);
      await new Promise((done) => setTimeout(done, 400));
    }
  } finally {
    if (bar) bar.hidden = true;
    document.body.dataset.busy = "0";
  }
}

document.addEventListener("click", async (ev) => {
  const slow = ev.target.closest("a[data-progress]");
  if (slow) {
    ev.preventDefault();
    await searchThenDownload(slow);
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
  await post(el.dataset.post, body, document.activeElement === el ? focusAfter(el) : null);
});

document.addEventListener("change", (ev) => {
  if (ev.target.matches("select[data-seats]")) showSeats();
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

showSeats();
