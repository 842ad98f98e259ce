// Pairing a phone with the box, in words (issue #20, item 6).
//
// What it promises:
// - An unpaired page shows only what it can do: the pairing form, and the box's screen
//   read-only where the box's `public_mirror` lets anyone watch (body[data-access]: "paired",
//   "unpaired", "watching").
// - The form says the box's real state for this phone: no code asked for yet; a code on the
//   box with the minutes it stays valid; locked after wrong codes, with a countdown, during
//   which neither button can be used. It never says a code is waiting when it asked for none.
// - Pairing opens at the box (issue #28): asked while it is closed, the box's own sentence
//   says how to open it ("Menu, Table page, Pair a phone"), and the form shows it as it is.
// - Opened from the box's QR code while pairing is open (issue #38, 6), the page's address
//   ends in /P/<secret>: the page takes the secret out of the address bar at once
//   (history.replaceState, so neither history nor a reload keeps it) and pairs with it, with
//   no code to ask for or type. A refusal (the window over, a link from another window)
//   shows on the form like a typed code's; typed codes used up say to scan the QR code.
// - No API paths and no HTTP statuses in what it says; a success clears every error.

import { $, getJson } from "./common.js";

const CODE_SECONDS = 120;
// The link on the QR code of the box: its address, then P/ and the secret of the window.
const LINK = /^\/P\/([0-9A-Za-z]{1,64})$/;
const pairing = { codeUntil: 0, lockedUntil: 0, ticker: null, onPaired: () => {},
                  linkSecret: null };

function minutes(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function renderState() {
  const now = Date.now() / 1000;
  const locked = pairing.lockedUntil > now;
  const pending = !locked && pairing.codeUntil > now;
  $("#pair-start").disabled = locked;
  $("#pair-send").disabled = locked;
  $("#pair-start").textContent = "Show a code on the box";  // one code a window: asking again keeps it
  const state = $("#pair-state");
  if (locked) {
    state.textContent = `Too many wrong codes: pairing is locked for ${minutes(pairing.lockedUntil - now)}.`;
  } else if (pending) {
    state.textContent = `The box shows your code for ${minutes(pairing.codeUntil - now)} more.`;
  } else if (pairing.codeUntil) {
    state.textContent = "Your code has expired: ask the box for a new one.";
  } else {
    state.textContent = "No code asked for yet.";
  }
  state.dataset.state = locked ? "locked" : pending ? "pending" : "none";
  if (!locked && !pending && pairing.ticker) {
    clearInterval(pairing.ticker);
    pairing.ticker = null;
  }
}

function tick() {
  renderState();
  if (!pairing.ticker) pairing.ticker = setInterval(renderState, 1000);
}

function lock(seconds) {
  pairing.lockedUntil = Date.now() / 1000 + (Number(seconds) || 60);
  pairing.codeUntil = 0;
  tick();
}

/** Which parts of the page this browser may use: "paired" (or trusted), "unpaired", or
 * "watching" (unpaired, but the box lets anyone see its screen). */
export function setAccess(access) {
  document.body.dataset.access = access;
  $("#pairing").hidden = access === "paired";
  if (access !== "paired") renderState();
}

/** Ask the box who this page is; shows what it may use and resolves to the access
 * ("paired", "watching", "unpaired"; "offline" when the box did not answer). */
export async function checkWhoami() {
  try {
    const { ok, body } = await getJson("/api/whoami");
    if (!ok || !body) return "offline";
    const access = body.trusted || body.paired ? "paired"
      : body.public_mirror ? "watching" : "unpaired";
    setAccess(access);
    return access;
  } catch {
    return "offline";  // the link status says so
  }
}

/** The box refused this browser (never paired, or "Forget phones" on the box). */
export function forgotten() {
  pairing.codeUntil = 0;
  $("#pair-message").textContent = "";
  setAccess(document.body.dataset.access === "watching" ? "watching" : "unpaired");
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let answer = {};
  try { answer = await response.json(); } catch { answer = {}; }
  return { ok: response.ok, answer: answer ?? {} };
}

// The secret of the QR code on the box when the page was opened from it (else null), taken
// out of the address bar at once: the page stays where it is, at "/".
function takeLinkSecret() {
  const found = LINK.exec(location.pathname);
  if (!found) return null;
  history.replaceState(history.state, "", `/${location.search}${location.hash}`);
  return found[1];
}

// Pair with the secret of the QR code if the page was opened from it and `access` (what
// checkWhoami said) is not paired yet; resolves to whether it paired. The secret is sent
// once: a refusal shows on the form, and a page already paired drops it unsent.
export async function pairWithLink(access) {
  const secret = pairing.linkSecret;
  if (!secret || access === "offline") return false;
  pairing.linkSecret = null;
  if (access === "paired") return false;
  let result;
  try { result = await post("/api/pair", { secret }); } catch { result = { ok: false, answer: {} }; }
  if (result.ok && result.answer.paired) {
    $("#pair-message").textContent = "";
    setAccess("paired");
    return true;
  }
  $("#pair-message").textContent = refused(result.answer);
  return false;
}

function refused(answer) {
  if (answer.error === "locked") {
    lock(answer.retry_after);
    return answer.message || "Too many wrong codes: ask someone at the box to open pairing again.";
  }
  if (answer.error === "pairing-closed") {
    pairing.codeUntil = 0;
    renderState();
    return answer.message;
  }
  if (answer.error === "codes-spent" || answer.error === "bad-secret") {
    // Scan the QR code on the box: the sentence of the box, as it is.
    return answer.message;
  }
  if (answer.error === "bad-code") {
    return pairing.codeUntil > Date.now() / 1000
      ? "That is not the code the box shows: try again."
      : "The box shows no code for this phone: ask for one first.";
  }
  return answer.message ? `The box refused: ${answer.message}.` : "The box did not answer: try again.";
}

export function wirePairing(onPaired) {
  pairing.onPaired = onPaired;
  pairing.linkSecret = takeLinkSecret();
  $("#pair-start").addEventListener("click", async () => {
    let result;
    try { result = await post("/api/pair/start"); } catch { result = { ok: false, answer: {} }; }
    if (result.ok) {
      pairing.codeUntil = Date.now() / 1000 + CODE_SECONDS;
      $("#pair-message").textContent = "";
      tick();
      $("#pair-code").focus();
    } else {
      $("#pair-message").textContent = refused(result.answer);
    }
  });
  $("#pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("#pair-code").value.replace(/\s+/g, "");
    let result;
    try { result = await post("/api/pair", { code }); } catch { result = { ok: false, answer: {} }; }
    if (result.ok && result.answer.paired) {
      pairing.codeUntil = 0;
      $("#pair-message").textContent = "";
      $("#pair-code").value = "";
      setAccess("paired");
      pairing.onPaired();
    } else {
      $("#pair-message").textContent = refused(result.answer);
      renderState();
    }
  });
}
