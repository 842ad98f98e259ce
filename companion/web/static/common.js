// The table page's shared plumbing: DOM helpers, the page's state, talking to the box and
// the games' facts. Every other module of the page imports from here; this one imports nothing.
//
// Two events tell the rest of the page what happened here without this module knowing it:
//   "companion:unpaired" (on document) when the box answered a line with 401/403;
//   "companion:games" (on document) once the games' facts have arrived.

// The box's own long press ([buttons] long_press_ms in companion/default_config.toml): a hold
// on the page is the same length as a hold on the box's buttons.
export const LONG_PRESS_DEFAULT_MS = 800;

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** Make an element: el("p", {class: "x", "aria-label": "y"}, "text", child...). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace a node's children, skipping the null/false of optional parts. */
export function fill(node, ...children) {
  node.replaceChildren(...children.filter((child) => child !== null && child !== undefined && child !== false));
}

export const page = {
  state: null,
  screen: null,
  frame: -1,
  longPressMs: LONG_PRESS_DEFAULT_MS,
};

// -- talking to the box --------------------------------------------------------------------

export async function getJson(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  return { status: response.status, ok: response.ok, body };
}

/** Send one protocol line; resolves to the reply line ("ok ...", "err ..."). */
/** A fresh Idempotency-Key: 16 random bytes as hex. crypto.getRandomValues works on a plain
 *  http:// page (crypto.randomUUID needs a secure context, which the box's page is not). */
export function newLineKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const PENDING_RETRIES = 30;
const OFFLINE_RETRIES = 2;

/** One protocol line to the box; its reply line. Each line carries its own Idempotency-Key
 *  (docs/web.md): a 202 "pending" (the box started it but is held up) and a lost answer (the
 *  network failed) are asked again with the same key, so the line runs at most once and its
 *  first result comes back; a 503 "busy" was never run. */
export async function sendLine(line) {
  const key = newLineKey();
  let offline = 0;
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch("/api/line", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "text/plain; charset=utf-8", "Idempotency-Key": key },
        body: line,
      });
    } catch (error) {
      if (offline++ < OFFLINE_RETRIES) continue;
      return `err offline the box did not answer (${error.message})`;
    }
    let body = null;
    try { body = await response.json(); } catch { body = null; }
    if (body && typeof body.reply === "string") return body.reply;
    if (response.status === 202 && body && body.pending) {
      if (attempt < PENDING_RETRIES) continue;
      return "err pending the box is still carrying it out";
    }
    if (response.status === 401 || response.status === 403) {
      document.dispatchEvent(new CustomEvent("companion:unpaired"));
    }
    const message = body && (body.message || body.error);
    return `err http-${response.status} ${message || response.statusText}`;
  }
}

// -- the games' facts -----------------------------------------------------------------------
// Titles and the lists a score form offers come from the box (GET /api/games: each game's
// facts, declared once in companion/games/registry.py); this script keeps no copy of them.

export const games = { list: [] };

export async function loadGames() {
  if (games.list.length) return;
  try {
    const { ok, body } = await getJson("/api/games");
    if (ok && body && Array.isArray(body.games)) {
      games.list = body.games;
      document.dispatchEvent(new CustomEvent("companion:games"));
    }
  } catch { /* offline: asked again when a form is built */ }
}

/** A count and its word, "1 complaint", "2 complaints" (the box's core/words.py, for the
 * page's own sentences: one way to say a count, never an `=== 1 ?` of its own). */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

export function gameTitle(game) {
  return games.list.find((facts) => facts.name === game)?.title ?? game;
}

/** One of the lists a game's form offers ([[id, title], ...]); empty until the box said. */
export function gameList(game, list) {
  return games.list.find((facts) => facts.name === game)?.lists?.[list] ?? [];
}


// -- the box's gestures, as the screen model names them ---------------------------------------
// The screen's `keys` label what each gesture does now ({"next": "Start flight", "hold_next":
// "Pause", ...}: companion/ui/screen.py); a page button sends the gesture's protocol line.

export const GESTURE_LINES = {
  next: "press next", hold_next: "hold next", up: "press up", down: "press down",
  back: "press back", hold_back: "hold back",
};

/** What a gesture does now, from the screen model ("" when the box says nothing). */
export function keyLabel(gesture) {
  const keys = page.screen?.keys;
  return keys && typeof keys[gesture] === "string" ? keys[gesture] : "";
}

/** Whether localStorage holds "true" for a setting (the default when it holds nothing). */
export function setting(name, fallback) {
  let stored = null;
  try { stored = localStorage.getItem(`companion.${name}`); } catch { stored = null; }
  return stored === null ? fallback : stored === "true";
}

export function saveSetting(name, value) {
  try { localStorage.setItem(`companion.${name}`, String(value)); } catch { /* private mode */ }
}

/** A checkbox kept in localStorage under its setting name. */
export function wireSetting(selector, name, fallback, changed = () => {}) {
  const box = $(selector);
  box.checked = setting(name, fallback);
  box.addEventListener("change", () => { saveSetting(name, box.checked); changed(box.checked); });
}
