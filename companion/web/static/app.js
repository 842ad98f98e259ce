// The table page (issue #15): the box on every phone and laptop at the table.
//
// Plain ES module, no build step, no network beyond the box itself. It talks only to the API in
// docs/web.md: GET /api/whoami, /api/state, /api/events (Server-Sent Events), /api/frame.png,
// /api/history...; POST /api/line (one protocol line), /api/pair/start, /api/pair.
//
// Stable hooks for the browser tests (web-e2e) — keep them when changing the page:
//   Views        tabs: #tab-box #tab-timer #tab-score #tab-bank #tab-history (role=tab);
//                panels #view-<name>; ?view=timer (or box, score, bank, history) opens one.
//   Mirror       #screen-lines (one <li> per display line), #frame (the panel's PNG),
//                #link-status ("Live", "Reconnecting…").
//   Buttons      #button-next #button-up #button-down #button-back ([data-button]); a tap sends
//                `press X`, a hold >= the long-press time sends `hold X`; #button-reply shows
//                an `err` reply.
//   Timer        #timer-digits, #timer-stage, #timer-round, #timer-complaints, #timer-state;
//                #view-timer gets class "last-seconds" in the last 10 s of a running countdown.
//   Sound        #sound-on (aria-pressed), #sound-volume (0-100), #sound-mute.
//   Pairing      #pairing (shown when the box wants a code), #pair-start, #pair-code,
//                #pair-send, #pair-message.
//   Score entry  #score-game (select: overbooked, planes, now-boarding-v3, now-boarding),
//                #score-load (fill from the box's own entry), #score-send, #score-error (the
//                refusal, verbatim), #score-result (table: #score-result table, winners in
//                #score-winners).
//                Every number is a stepper: <div class="stepper" data-field=F data-player=P>
//                with <input id="score-F" or "score-P-F"> and buttons labelled "F: more" and
//                "F: less" (P counts players from 0; fields: players, complaints, undelivered,
//                unserved_vips, lost, total, boarded, overbooked, vouchers, bonus_cards, and
//                goal-N for a Planes goal card's VP).
//                Names: input#score-P-name. Overbooked: #ob-variant, #ob-board, #ob-players,
//                #ob-scenario, #ob-difficulty, event checkboxes input[data-event=ID]; one tab per
//                player button#ob-tab-P (role=tab); seats are
//                button.seat[data-player=P][data-row=R][data-column=C] with R and C counted from
//                1 as the error messages count them (C is the character in the row's text,
//                aisles included) and data-seat the letter now ('.' empty). A tap cycles
//                . -> R -> W -> B -> G -> Y -> . ; #ob-counts-P lists that player's passengers.
//                Planes: button#planes-add-goal-P adds a goal card.
//   Bank         #bank: one article.bank-player[data-player=NAME] per player.
//   History      #history: one details.history-game[data-game-id=ID] per game, with
//                svg.chart, a.download[data-kind=json|csv|png], a.bgstats.

const LONG_PRESS_DEFAULT_MS = 600;
const LAST_SECONDS = 10;
const SEAT_CYCLE = [".", "R", "W", "B", "G", "Y"];
const SEAT_NAMES = {
  ".": "empty", R: "couple (red)", W: "child (white)", B: "friend (blue)",
  G: "friend (green)", Y: "friend (yellow)",
};
const BOARDS = {
  "1-3-player": [3, 4, 3],
  "4-player": [4, 4],
};
const ROWS = 5;

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** Make an element: el("p", {class: "x", "aria-label": "y"}, "text", child...). */
function el(tag, attributes = {}, ...children) {
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
function fill(node, ...children) {
  node.replaceChildren(...children.filter((child) => child !== null && child !== undefined && child !== false));
}

const page = {
  state: null,
  screen: null,
  frame: -1,
  longPressMs: LONG_PRESS_DEFAULT_MS,
};

// -- talking to the box --------------------------------------------------------------------

async function getJson(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  return { status: response.status, ok: response.ok, body };
}

/** Send one protocol line; resolves to the reply line ("ok ...", "err ..."). */
async function sendLine(line) {
  try {
    const response = await fetch("/api/line", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8" }, body: line,
    });
    let body = null;
    try { body = await response.json(); } catch { body = null; }
    if (body && typeof body.reply === "string") return body.reply;
    if (response.status === 401 || response.status === 403) showPairing(true);
    const message = body && (body.message || body.error);
    return `err http-${response.status} ${message || response.statusText}`;
  } catch (error) {
    return `err offline the box did not answer (${error.message})`;
  }
}

function setLinkStatus(text, live) {
  const status = $("#link-status");
  status.textContent = text;
  status.classList.toggle("live", Boolean(live));
}

let events = null;
let retryMs = 1000;

function connectEvents() {
  if (events) events.close();
  events = new EventSource("/api/events");
  events.addEventListener("open", () => { retryMs = 1000; setLinkStatus("Live", true); });
  events.addEventListener("update", (message) => {
    try { applyUpdate(JSON.parse(message.data)); } catch (error) { console.error(error); }
  });
  events.addEventListener("tune", (message) => {
    try { playTune(JSON.parse(message.data)); } catch (error) { console.error(error); }
  });
  events.addEventListener("pair", (message) => {
    try {
      const data = JSON.parse(message.data);
      if (data.pending) $("#pair-message").textContent = "A code is on the box's display.";
    } catch (error) { console.error(error); }
  });
  events.addEventListener("error", () => {
    setLinkStatus($("#pairing").hidden ? "Reconnecting…" : "Not paired yet", false);
    // The browser retries by itself while the stream is CONNECTING; once CLOSED (the server
    // refused it, e.g. not paired yet) it gives up, so we try again, more slowly each time.
    if (events.readyState === EventSource.CLOSED) {
      events.close();
      checkWhoami();
      setTimeout(connectEvents, retryMs);
      retryMs = Math.min(retryMs * 2, 15000);
    }
  });
}

function applyUpdate(update) {
  if (update.state) {
    page.state = update.state;
    const configured = Number(update.state.long_press_ms ?? update.state.buttons?.long_press_ms);
    if (configured > 0) page.longPressMs = configured;
  }
  if (update.screen) page.screen = update.screen;
  if (typeof update.frame === "number" && update.frame !== page.frame) {
    page.frame = update.frame;
    const frame = $("#frame");
    frame.onload = () => { frame.hidden = false; };
    frame.onerror = () => { frame.hidden = true; };
    frame.src = `/api/frame.png?n=${update.frame}`;
  }
  renderScreen();
  renderTimer();
  renderBank();
}

// -- the mirror ----------------------------------------------------------------------------

function renderScreen() {
  const list = $("#screen-lines");
  const lines = page.screen?.lines ?? [];
  list.replaceChildren(...lines.map((line, index) =>
    el("li", { class: index === 0 ? "title" : "" }, line === "" ? "\u00a0" : line)));
}

// -- the big timer -------------------------------------------------------------------------

function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-9));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

function capital(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : "";
}

function renderTimer() {
  const state = page.state;
  const view = $("#view-timer");
  const timer = state?.timer;
  const hasCountdown = timer && (timer.duration > 0 || timer.state !== "idle");
  $("#timer-digits").textContent = hasCountdown ? clock(timer.remaining)
    : (typeof state?.elapsed === "number" ? clock(state.elapsed) : "–:––");
  const running = timer?.state === "running";
  view.classList.toggle("last-seconds",
    Boolean(running && timer.remaining <= LAST_SECONDS));
  view.classList.toggle("expired", timer?.state === "expired");
  const stage = state?.stage ? capital(state.stage) : (state?.game ? gameTitle(state.game) : "");
  $("#timer-stage").textContent = stage || "No game in play";
  $("#timer-state").textContent = timer ? ({
    running: "", paused: "PAUSED", expired: "TIME UP", idle: "ready",
  }[timer.state] ?? timer.state) : "";
  const rounds = state?.flights_total ?? (state?.game === "now-boarding-v3" ? 6 : null);
  const round = state?.round ?? state?.rounds;
  const day = typeof state?.day === "number" ? `Day ${state.day}, ` : "";
  $("#timer-round").textContent = round
    ? `${day}${day ? "round" : "Round"} ${round}${rounds ? ` of ${rounds}` : ""}` : "Round –";
  const complaints = $("#timer-complaints");
  if (typeof state?.complaints === "number") {
    complaints.textContent = `Complaints ${state.complaints}/3`;
    complaints.classList.toggle("danger", state.complaints >= 2);
    complaints.hidden = false;
  } else {
    complaints.hidden = true;
  }
}

// -- the games' facts -----------------------------------------------------------------------
// Titles and the lists a score form offers come from the box (GET /api/games: each game's
// facts, declared once in companion/games/registry.py); this script keeps no copy of them.

const games = { list: [] };

async function loadGames() {
  if (games.list.length) return;
  try {
    const { ok, body } = await getJson("/api/games");
    if (ok && body && Array.isArray(body.games)) {
      games.list = body.games;
      $("#bank-title").textContent = `${gameTitle("flight-plan")} bank`;
      renderTimer();
    }
  } catch { /* offline: asked again when a form is built */ }
}

function gameTitle(game) {
  return games.list.find((facts) => facts.name === game)?.title ?? game;
}

/** One of the lists a game's form offers ([[id, title], ...]); empty until the box said. */
function gameList(game, list) {
  return games.list.find((facts) => facts.name === game)?.lists?.[list] ?? [];
}

// -- the four buttons ----------------------------------------------------------------------

async function pressButton(button, hold) {
  const line = `${hold ? "hold" : "press"} ${button}`;
  const reply = await sendLine(line);
  const shown = $("#button-reply");
  shown.textContent = reply.startsWith("err") ? `${line}: ${reply}` : "";
}

function wireButtons() {
  for (const node of $$("button.hw")) {
    const name = node.dataset.button;
    let downAt = null;
    let timer = null;
    let fired = false;
    const start = (event) => {
      if (event.button !== undefined && event.button !== 0) return;
      event.preventDefault();
      try { node.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
      downAt = performance.now();
      fired = false;
      node.classList.add("down");
      // The hold fires when the time is reached, as on the box: the player feels it happen.
      timer = setTimeout(() => { fired = true; node.classList.add("held"); pressButton(name, true); },
        page.longPressMs);
    };
    const end = (event, cancelled) => {
      if (downAt === null) return;
      event.preventDefault();
      clearTimeout(timer);
      node.classList.remove("down", "held");
      if (!fired && !cancelled) pressButton(name, false);
      downAt = null;
    };
    node.addEventListener("pointerdown", start);
    node.addEventListener("pointerup", (event) => end(event, false));
    node.addEventListener("pointercancel", (event) => end(event, true));
    node.addEventListener("contextmenu", (event) => event.preventDefault());
    // Keyboard activation of the focused button (Enter/Space) is a press; the page-wide keys
    // below do the rest, so a click without a pointer (assistive tech) still presses.
    node.addEventListener("click", (event) => {
      if (event.detail === 0) pressButton(name, false);
    });
  }
  const keys = {
    n: ["next", false], Enter: ["next", false], " ": ["next", false], N: ["next", true],
    k: ["up", false], ArrowUp: ["up", false], j: ["down", false], ArrowDown: ["down", false],
    b: ["back", false], Backspace: ["back", false], B: ["back", true],
  };
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, [contenteditable]")) return;
    if (target.closest?.("button, a, summary") && (event.key === "Enter" || event.key === " ")) {
      return;   // the focused control's own activation
    }
    const current = $(".view:not([hidden])")?.id;
    if (current !== "view-box" && current !== "view-timer") return;
    const binding = keys[event.key];
    if (!binding) return;
    event.preventDefault();
    pressButton(binding[0], binding[1]);
  });
}

// -- sound ---------------------------------------------------------------------------------

const sound = { context: null, master: null, on: false };

function loadSoundSettings() {
  const volume = Number(localStorage.getItem("companion.volume") ?? "60");
  $("#sound-volume").value = String(Number.isFinite(volume) ? volume : 60);
  $("#sound-mute").checked = localStorage.getItem("companion.muted") === "true";
}

function applyVolume() {
  const volume = Number($("#sound-volume").value) / 100;
  const muted = $("#sound-mute").checked;
  localStorage.setItem("companion.volume", $("#sound-volume").value);
  localStorage.setItem("companion.muted", String(muted));
  if (sound.master) sound.master.gain.value = muted ? 0 : volume * volume * 0.5;
}

function wireSound() {
  loadSoundSettings();
  $("#sound-volume").addEventListener("input", applyVolume);
  $("#sound-mute").addEventListener("change", applyVolume);
  $("#sound-on").addEventListener("click", () => {
    if (!sound.context) {
      // Browsers allow audio only after a gesture on this page: this tap is it. Only a page
      // whose user asked for sound ever makes one.
      sound.context = new AudioContext();
      sound.master = sound.context.createGain();
      sound.master.connect(sound.context.destination);
    }
    sound.on = !sound.on;
    $("#sound-on").setAttribute("aria-pressed", String(sound.on));
    applyVolume();
    // Not awaited: a browser may hold the promise until it counts the tap as a gesture.
    if (sound.on) sound.context.resume().catch(() => {});
  });
}

function playTune(tune) {
  if (!sound.on || !sound.context || $("#sound-mute").checked) return;
  const context = sound.context;
  let at = context.currentTime + 0.02;
  for (const [hz, seconds] of tune.notes ?? []) {
    const length = Math.max(0, Number(seconds) || 0);
    if (hz && length > 0) {
      const oscillator = context.createOscillator();
      const envelope = context.createGain();
      oscillator.type = "square";
      oscillator.frequency.value = hz;
      // A short attack and release: no clicks at the note's edges.
      const edge = Math.min(0.01, length / 4);
      envelope.gain.setValueAtTime(0, at);
      envelope.gain.linearRampToValueAtTime(0.6, at + edge);
      envelope.gain.setValueAtTime(0.6, at + length - edge);
      envelope.gain.linearRampToValueAtTime(0, at + length);
      oscillator.connect(envelope).connect(sound.master);
      oscillator.start(at);
      oscillator.stop(at + length + 0.01);
    }
    at += length;
  }
}

// -- pairing -------------------------------------------------------------------------------

function showPairing(show) {
  $("#pairing").hidden = !show;
}

async function checkWhoami() {
  try {
    const { ok, body } = await getJson("/api/whoami");
    if (ok && body) showPairing(!body.trusted && !body.paired);
  } catch { /* offline: the link status says so */ }
}

function wirePairing() {
  $("#pair-start").addEventListener("click", async () => {
    const response = await fetch("/api/pair/start", { method: "POST", credentials: "same-origin" });
    $("#pair-message").textContent = response.ok
      ? "The box shows a code now: type it below."
      : `The box refused: ${response.status}`;
  });
  $("#pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("#pair-code").value.trim();
    const response = await fetch("/api/pair", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }),
    });
    let body = {};
    try { body = await response.json(); } catch { body = {}; }
    if (response.ok && body.paired) {
      $("#pair-message").textContent = "Paired.";
      showPairing(false);
      connectEvents();
    } else if (body.error === "locked") {
      $("#pair-message").textContent =
        `Too many wrong codes: try again in ${body.retry_after ?? 60} s.`;
    } else if (body.error === "bad-code") {
      $("#pair-message").textContent = "That is not the code the box shows: try again.";
    } else {
      $("#pair-message").textContent = body.message || `The box refused (${response.status}).`;
    }
  });
}

// -- views ---------------------------------------------------------------------------------

function showView(name) {
  for (const tab of $$("[role=tab][data-view]")) {
    const selected = tab.dataset.view === name;
    tab.setAttribute("aria-selected", String(selected));
    $(`#view-${tab.dataset.view}`).hidden = !selected;
  }
  document.body.dataset.view = name;
  if (name === "history") loadHistory();
  if (name === "score" && !$("#score-form").hasChildNodes()) buildScoreForm();
  const url = new URL(window.location.href);
  url.searchParams.set("view", name);
  history.replaceState(null, "", url);
}

function wireViews() {
  for (const tab of $$("[role=tab][data-view]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  const wanted = new URLSearchParams(window.location.search).get("view");
  showView($(`#view-${wanted}`) ? wanted : "box");
}

// -- score entry ---------------------------------------------------------------------------

/** A number stepper: label, - / + buttons and the input, all findable by name. */
function stepper(label, field, { player = null, value = 0, min = 0, max = 999 } = {}) {
  const id = player === null ? `score-${field}` : `score-${player}-${field}`;
  const input = el("input", {
    id, type: "number", inputmode: "numeric", min, max, value, "data-field": field,
  });
  const bump = (delta) => {
    const next = Math.min(max, Math.max(min, (Number(input.value) || 0) + delta));
    input.value = String(next);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };
  return el("div", { class: "stepper", "data-field": field, "data-player": player },
    el("label", { for: id }, label),
    el("button", { type: "button", "aria-label": `${label}: less`, onclick: () => bump(-1) }, "−"),
    input,
    el("button", { type: "button", "aria-label": `${label}: more`, onclick: () => bump(1) }, "+"));
}

function numberOf(id) {
  const value = $(`#${id}`)?.value ?? "";
  return value === "" ? Number.NaN : Number(value);
}

function textField(label, id, value) {
  return el("div", { class: "field" }, el("label", { for: id }, label),
    el("input", { id, type: "text", value, autocomplete: "off" }));
}

function select(label, id, options, value, onchange) {
  return el("div", { class: "field" }, el("label", { for: id }, label),
    el("select", { id, onchange },
      ...options.map(([key, text]) => el("option", { value: key, selected: key === value }, text))));
}

const builders = {
  "now-boarding": buildNowBoarding,
  "now-boarding-v3": buildV3,
  planes: buildPlanes,
  overbooked: buildOverbooked,
};
const readers = {
  "now-boarding": readNowBoarding,
  "now-boarding-v3": readV3,
  planes: readPlanes,
  overbooked: readOverbooked,
};

/** The forms this page has, in the order it offers them: the game, and what its form enters
 * when that is not the whole game (the titles come from the box). */
const SCORE_FORMS = [["overbooked", ""], ["planes", ""], ["now-boarding-v3", ""],
  ["now-boarding", ": the final count"]];

function fillScoreGames() {
  const choice = $("#score-game");
  if (choice.options.length) return;
  choice.append(...SCORE_FORMS.filter(([game]) => games.list.some((facts) => facts.name === game))
    .map(([game, what]) => el("option", { value: game }, `${gameTitle(game)}${what}`)));
}

async function buildScoreForm(prefill = null) {
  await loadGames();
  fillScoreGames();
  const game = $("#score-game").value;
  if (!builders[game]) return;  // the box has not said which games there are (yet)
  const form = $("#score-form");
  form.replaceChildren();
  $("#score-error").textContent = "";
  $("#score-result").replaceChildren();
  builders[game](form, prefill);
}

function buildNowBoarding(form, prefill) {
  form.append(
    stepper("players", "players", { value: prefill?.players ?? 3, min: 2, max: 5 }),
    stepper("complaints", "complaints", { value: prefill?.complaints ?? 0 }),
    stepper("undelivered", "undelivered", { value: prefill?.undelivered ?? 0 }),
    stepper("unserved_vips", "unserved_vips", { value: prefill?.unserved_vips ?? 0 }),
    el("p", { class: "hint" },
      "Complaints in all = complaints + half the undelivered (rounded down) + unserved VIPs; "
      + "the table wins with fewer than 3."));
}

function readNowBoarding() {
  return {
    players: numberOf("score-players"), complaints: numberOf("score-complaints"),
    undelivered: numberOf("score-undelivered"), unserved_vips: numberOf("score-unserved_vips"),
  };
}

function playerCount(form, id, fallback, min, max, rebuild) {
  return select("Players", id,
    Array.from({ length: max - min + 1 }, (_, i) => [String(min + i), String(min + i)]),
    String(fallback), rebuild);
}

function buildV3(form, prefill) {
  const players = prefill?.players ?? Array.from({ length: 3 }, (_, i) => ({ name: `P${i + 1}`, total: 0 }));
  const rebuild = () => {
    const count = Number($("#v3-players").value);
    const kept = readV3().players;
    buildV3(form, { variant: $("#v3-variant").value, lost: numberOf("score-lost"),
      players: Array.from({ length: count }, (_, i) => kept[i] ?? { name: `P${i + 1}`, total: 0 }) });
  };
  fill(form,
    select("Variant", "v3-variant", [["basic", "basic"], ["advanced", "advanced"]],
      prefill?.variant ?? "basic"),
    playerCount(form, "v3-players", players.length, 3, 6, rebuild),
    stepper("Lost pile", "lost", { value: prefill?.lost ?? 0 }),
    ...players.map((player, index) => el("fieldset", { class: "player" },
      el("legend", {}, `Player ${index + 1}`),
      textField("name", `score-${index}-name`, player.name),
      stepper("total", "total", {
        player: index,
        value: player.total ?? (player.passengers ?? []).reduce((a, b) => a + b, 0),
      }))));
}

function readV3() {
  const players = $$("#score-form fieldset.player").map((_, index) => ({
    name: $(`#score-${index}-name`).value.trim(), total: numberOf(`score-${index}-total`),
  }));
  return { variant: $("#v3-variant")?.value ?? "basic", lost: numberOf("score-lost"), players };
}

function buildPlanes(form, prefill) {
  const players = prefill?.players
    ?? Array.from({ length: 2 }, (_, i) => ({ name: `P${i + 1}`, goals: [], boarded: 0 }));
  const rebuild = (changed) => {
    const kept = readPlanes().players;
    const count = changed ?? Number($("#planes-players").value);
    buildPlanes(form, {
      players: Array.from({ length: count }, (_, i) => kept[i] ?? { name: `P${i + 1}`, goals: [], boarded: 0 }),
    });
  };
  fill(form,
    playerCount(form, "planes-players", players.length, 2, 4, () => rebuild()),
    ...players.map((player, index) => el("fieldset", { class: "player" },
      el("legend", {}, `Player ${index + 1}`),
      textField("name", `score-${index}-name`, player.name),
      stepper("own cubes boarded", "boarded", { player: index, value: player.boarded ?? 0, max: 5 }),
      el("div", { class: "goals", "data-player": index },
        ...(player.goals ?? []).map((vp, goal) =>
          stepper(`goal card ${goal + 1} VP`, `goal-${goal}`, { player: index, value: vp }))),
      el("button", {
        type: "button", id: `planes-add-goal-${index}`, "aria-label": `Player ${index + 1}: add a goal card`,
        onclick: () => {
          const kept = readPlanes().players;
          kept[index].goals.push(0);
          buildPlanes(form, { players: kept });
        },
      }, "+ goal card"),
      player.goals?.length ? el("button", {
        type: "button", "aria-label": `Player ${index + 1}: remove the last goal card`,
        onclick: () => {
          const kept = readPlanes().players;
          kept[index].goals.pop();
          buildPlanes(form, { players: kept });
        },
      }, "− goal card") : null)));
}

function readPlanes() {
  const players = $$("#score-form fieldset.player").map((fieldset, index) => ({
    name: $(`#score-${index}-name`).value.trim(),
    goals: $$(".goals input", fieldset).map((input) => (input.value === "" ? Number.NaN : Number(input.value))),
    boarded: numberOf(`score-${index}-boarded`),
  }));
  return { players };
}

// Overbooked: the seat grid drawn to the board's layout, one tab per player.

const overbooked = { active: 0 };

function emptyRows(board) {
  const row = BOARDS[board].map((seats) => ".".repeat(seats)).join("|");
  return Array.from({ length: ROWS }, () => row);
}

function boardFor(choice, players) {
  if (choice !== "auto") return choice;
  return players === 4 ? "4-player" : "1-3-player";
}

function buildOverbooked(form, prefill) {
  const input = prefill ?? {};
  const count = input.players?.length ?? 2;
  const boardChoice = input.board ?? "auto";
  const board = boardFor(boardChoice, count);
  const blank = emptyRows(board);
  const players = Array.from({ length: count }, (_, i) => {
    const given = input.players?.[i] ?? {};
    const seats = Array.isArray(given.seats) && given.seats.length
      && given.seats[0].length === blank[0].length ? given.seats : blank;
    return {
      name: given.name ?? `P${i + 1}`, seats, overbooked: given.overbooked ?? 0,
      vouchers: given.vouchers ?? 0, bonus_cards: given.bonus_cards ?? 0,
    };
  });
  const variant = input.variant ?? "base";
  overbooked.active = Math.min(overbooked.active, count - 1);
  const rebuild = () => buildOverbooked(form, { ...readOverbooked(), board: $("#ob-board").value });
  const resize = () => {
    const current = readOverbooked();
    const wanted = Number($("#ob-players").value);
    const kept = Array.from({ length: wanted }, (_, i) => current.players[i] ?? { name: `P${i + 1}` });
    buildOverbooked(form, { ...current, board: $("#ob-board").value, players: kept });
  };
  const events = new Set(input.events ?? []);
  const scenarios = gameList("overbooked", "scenarios");
  const tabs = el("div", { class: "player-tabs", role: "tablist", "aria-label": "Players" },
    ...players.map((player, index) => el("button", {
      type: "button", role: "tab", id: `ob-tab-${index}`, "data-player": index,
      "aria-selected": String(index === overbooked.active), "aria-controls": `ob-player-${index}`,
      onclick: () => { overbooked.active = index; selectPlayerTab(); },
    }, player.name || `Player ${index + 1}`)));
  fill(form,
    el("div", { class: "row" },
      select("Variant", "ob-variant", [["base", "base"], ["advanced", "advanced"]], variant, rebuild),
      select("Board side", "ob-board", [["auto", "auto"],
        ["1-3-player", "1-3-player side"], ["4-player", "4-player side"]], boardChoice, rebuild),
      select("Players", "ob-players", [["1", "1 (solo)"], ["2", "2"], ["3", "3"], ["4", "4"]],
        String(count), resize)),
    count === 1 ? el("div", { class: "row" },
      select("Solo scenario", "ob-scenario", scenarios, input.solo?.scenario ?? scenarios[0]?.[0]),
      select("Difficulty", "ob-difficulty", [["easy", "easy"], ["medium", "medium"], ["hard", "hard"]],
        input.solo?.difficulty ?? "easy")) : null,
    el("details", { class: "events" },
      el("summary", {}, `Event cards in play (${events.size})`),
      el("div", { class: "event-list" }, ...gameList("overbooked", "events").map(([id, name]) => el("label", {},
        el("input", { type: "checkbox", "data-event": id, checked: events.has(id) }), ` ${name}`)))),
    tabs,
    ...players.map((player, index) => el("section", {
      class: "ob-player", id: `ob-player-${index}`, role: "tabpanel", "aria-labelledby": `ob-tab-${index}`,
      hidden: index !== overbooked.active, "data-player": index,
    },
    textField("name", `score-${index}-name`, player.name),
    seatGrid(player.seats, index),
    el("p", { class: "counts", id: `ob-counts-${index}`, "aria-live": "polite" }),
    stepper("overbooked", "overbooked", { player: index, value: player.overbooked }),
    stepper("vouchers", "vouchers", { player: index, value: player.vouchers }),
    variant === "advanced" ? stepper("bonus cards", "bonus_cards", { player: index, value: player.bonus_cards }) : null)));
  for (let index = 0; index < count; index += 1) {
    updateCounts(index);
    $(`#score-${index}-name`).addEventListener("input", (event) => {
      $(`#ob-tab-${index}`).textContent = event.target.value || `Player ${index + 1}`;
    });
  }
}

function selectPlayerTab() {
  for (const tab of $$(".player-tabs [role=tab]")) {
    const selected = Number(tab.dataset.player) === overbooked.active;
    tab.setAttribute("aria-selected", String(selected));
    $(`#ob-player-${tab.dataset.player}`).hidden = !selected;
  }
}

function seatGrid(rows, player) {
  // A group of plain buttons (not an ARIA grid): each seat stays a button by its role and name.
  const grid = el("div", { class: "plane", role: "group", "aria-label": `Player ${player + 1}'s plane` });
  rows.forEach((row, r) => {
    const line = el("div", { class: "plane-row" },
      el("span", { class: "row-number", "aria-hidden": "true" }, String(r + 1)));
    [...row].forEach((letter, c) => {
      if (letter === "|") {
        line.append(el("span", { class: "aisle", "aria-hidden": "true" }));
        return;
      }
      const seat = el("button", {
        type: "button", class: "seat", "data-player": player,
        "data-row": r + 1, "data-column": c + 1, "data-seat": letter,
      });
      describeSeat(seat);
      seat.addEventListener("click", () => {
        const next = SEAT_CYCLE[(SEAT_CYCLE.indexOf(seat.dataset.seat) + 1) % SEAT_CYCLE.length];
        seat.dataset.seat = next;
        describeSeat(seat);
        updateCounts(player);
      });
      line.append(seat);
    });
    grid.append(line);
  });
  return grid;
}

function describeSeat(seat) {
  const letter = seat.dataset.seat;
  seat.textContent = letter === "." ? "" : letter;
  seat.setAttribute("aria-label",
    `row ${seat.dataset.row}, column ${seat.dataset.column}: ${SEAT_NAMES[letter]}`);
}

function seatRows(player) {
  const rows = [];
  for (const line of $$(`#ob-player-${player} .plane-row`)) {
    rows.push([...line.children].slice(1).map((cell) => (cell.classList.contains("aisle") ? "|" : cell.dataset.seat)).join(""));
  }
  return rows;
}

function updateCounts(player) {
  const tally = { R: 0, W: 0, B: 0, G: 0, Y: 0, ".": 0 };
  for (const seat of $$(`#ob-player-${player} .seat`)) tally[seat.dataset.seat] += 1;
  $(`#ob-counts-${player}`).textContent =
    `red ${tally.R}, white ${tally.W}, blue ${tally.B}, green ${tally.G}, `
    + `yellow ${tally.Y}, empty ${tally["."]}`;
}

function readOverbooked() {
  const variant = $("#ob-variant")?.value ?? "base";
  const count = $$(".ob-player").length;
  const players = Array.from({ length: count }, (_, index) => {
    const player = {
      name: $(`#score-${index}-name`).value.trim(), seats: seatRows(index),
      overbooked: numberOf(`score-${index}-overbooked`), vouchers: numberOf(`score-${index}-vouchers`),
    };
    if (variant === "advanced") player.bonus_cards = numberOf(`score-${index}-bonus_cards`);
    return player;
  });
  const input = {
    variant, events: $$("input[data-event]").filter((box) => box.checked).map((box) => box.dataset.event),
    players,
  };
  if (count === 1 && $("#ob-scenario")) {
    input.solo = { scenario: $("#ob-scenario").value, difficulty: $("#ob-difficulty").value };
  }
  return input;
}

async function sendScore() {
  const game = $("#score-game").value;
  const input = readers[game]();
  const error = $("#score-error");
  const out = $("#score-result");
  error.textContent = "";
  out.replaceChildren(el("p", {}, "Scoring…"));
  const reply = await sendLine(`score ${game} ${JSON.stringify(input)}`);
  if (reply.startsWith("ok")) {
    renderResult(JSON.parse(reply.slice(2).trim() || "{}"));
  } else {
    out.replaceChildren();
    // The refusal as the box gives it: it names the player, row and column.
    error.textContent = reply.replace(/^err \S+ /, "");
  }
}

function renderResult(result) {
  const out = $("#score-result");
  const parts = [];
  const players = result.players ?? [];
  if (players.length) {
    const places = new Map();
    (result.ranking ?? []).forEach((names, index) => names.forEach((name) => places.set(name, index + 1)));
    const categories = [...new Set(players.flatMap((player) => Object.keys(player.breakdown ?? {})))];
    const ordered = [...players].sort((a, b) => (places.get(a.name) ?? 99) - (places.get(b.name) ?? 99));
    parts.push(el("div", { class: "table-scroll" }, el("table", {},
      el("caption", {}, `${gameTitle(result.game)}: the scores`),
      el("thead", {}, el("tr", {}, ...["#", "player", "total", ...categories].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...ordered.map((player) => el("tr", {},
        el("td", {}, places.get(player.name) ?? ""), el("th", { scope: "row" }, player.name),
        el("td", { class: "total" }, player.total),
        ...categories.map((key) => el("td", {}, player.breakdown?.[key] ?? "")))))))); 
  }
  if (result.game === "now-boarding") {
    parts.push(el("p", { class: `verdict ${result.result}` },
      `${result.result === "win" ? "WIN" : "LOSE"}: ${result.complaints_total} complaints in all`),
    el("ul", {}, ...Object.entries(result.breakdown ?? {}).map(([key, value]) => el("li", {}, `${key}: ${value}`))));
  }
  if (result.winners && result.game !== "now-boarding") {   // cooperative: the verdict says it
    parts.push(el("p", { id: "score-winners", class: "winners" },
      result.winners.length ? `Winners: ${result.winners.join(", ")}` : "No winner"));
  }
  if (result.score !== undefined) {
    parts.push(el("p", {}, `Final score ${result.score}: ${result.rating}`
      + (result.lost_game ? " — game lost (too many lost passengers)" : "")));
  }
  if (result.solo) {
    parts.push(el("p", {}, `Solo ${result.solo.scenario} (${result.solo.difficulty}): ${result.solo.won ? "WON" : "lost"}`));
  }
  out.replaceChildren(...parts);
  out.scrollIntoView({ block: "nearest" });
}

async function loadFromBox() {
  const { ok, body } = await getJson("/api/state");
  const state = ok ? body : page.state;
  const game = $("#score-game").value;
  if (!state || state.game !== game || !(state.entry?.input ?? state.entry)) {
    $("#score-error").textContent = `The box has no ${gameTitle(game)} score entry in play.`;
    return;
  }
  const entered = state.entry.input ?? state.entry;
  buildScoreForm(game === "overbooked" ? { ...entered, board: state.board ?? "auto" } : entered);
}

function wireScore() {
  $("#score-game").addEventListener("change", () => buildScoreForm());
  $("#score-send").addEventListener("click", sendScore);
  $("#score-load").addEventListener("click", loadFromBox);
}

// -- Flight Plan bank ----------------------------------------------------------------------

function renderBank() {
  const host = $("#bank");
  const state = page.state;
  if (!state || state.game !== "flight-plan") {
    host.replaceChildren(el("p", {}, `No ${gameTitle("flight-plan")} game in play. Start one from the box's menu.`));
    return;
  }
  const names = state.names ?? Object.keys(state.cash ?? {});
  const cards = names.map((name) => {
    const win = state.win?.[name] ?? { conditions: {}, missing: {} };
    const turn = state.player === name;
    return el("article", { class: `bank-player${turn ? " turn" : ""}`, "data-player": name },
      el("h3", {}, name, turn ? el("span", { class: "badge" }, "turn") : null,
        (state.bankrupt ?? []).includes(name) ? el("span", { class: "badge danger" }, "bankrupt") : null),
      el("p", { class: "cash" }, `$${state.cash?.[name] ?? 0}M`),
      el("p", {}, `Routes ${(state.assets?.[name]?.routes ?? []).join(", ") || "none"}; `
        + `hubs ${(state.assets?.[name]?.hubs ?? []).join(", ") || "none"}; `
        + `fleets ${(state.assets?.[name]?.fleets ?? []).join(", ") || "none"}`),
      el("h4", {}, "Deactivated"),
      (state.countdowns?.[name] ?? []).length
        ? el("ul", {}, ...state.countdowns[name].map((item) =>
          el("li", {}, `${item.asset}: ${item.turns_left === 0 ? "back in use next turn" : `${item.turns_left} turns left`}`)))
        : el("p", {}, "nothing"),
      el("h4", {}, "Win check"),
      el("ul", { class: "win" }, ...Object.entries(win.conditions).map(([condition, met]) =>
        el("li", { class: met ? "met" : "unmet" }, `${met ? "✓" : "✗"} ${condition}`,
          !met && win.missing?.[condition] ? el("span", { class: "missing" }, `: ${win.missing[condition]}`) : null))));
  });
  const parts = [el("p", {}, `Round ${state.round}, turn ${state.turn}: ${state.player ?? "—"} to play`)];
  if (state.revenue) {
    parts.push(el("p", { class: "revenue" },
      `${state.player}'s revenue this turn: $${state.revenue.total}M (routes $${state.revenue.routes}M, `
      + `cargo $${state.revenue.cargo}M)`
      + ((state.revenue.reactivated ?? []).length ? `; back in use: ${state.revenue.reactivated.join(", ")}` : "")));
  }
  host.replaceChildren(...parts, el("div", { class: "bank-grid" }, ...cards));
}

// -- history -------------------------------------------------------------------------------

async function loadHistory() {
  const message = $("#history-message");
  message.textContent = "Loading…";
  const { ok, body, status } = await getJson("/api/history").catch(() => ({ ok: false, status: 0 }));
  if (!ok) {
    message.textContent = `Could not read the history (${body?.message ?? status}).`;
    return;
  }
  message.textContent = body.games.length ? "" : "No games yet.";
  $("#history").replaceChildren(...body.games.map(historyGame));
}

function resultText(result) {
  if (result === null || result === undefined) return "not finished";
  if (typeof result === "string") return result;
  if (Array.isArray(result.winners)) return result.winners.length ? `winners: ${result.winners.join(", ")}` : "no winner";
  return JSON.stringify(result).slice(0, 40);
}

function historyGame(game) {
  const started = String(game.started ?? "").replace("T", " ").slice(0, 16);
  const links = el("p", { class: "downloads" },
    ...Object.entries(game.downloads).map(([kind, href]) =>
      el("a", { class: "download", href, download: "", "data-kind": kind }, `Download ${kind.toUpperCase()}`)),
    game.bgstats ? el("a", { class: "bgstats", href: game.bgstats }, "Log this play in BG Stats") : null);
  const table = el("div", { class: "table-scroll" }, el("table", {},
    el("caption", {}, "Per round"),
    el("thead", {}, el("tr", {}, ...game.table.columns.map((c) => el("th", { scope: "col" }, c)))),
    el("tbody", {}, ...game.table.rows.map((row) => el("tr", {}, ...row.map((cell) => el("td", {}, cell ?? "")))))));
  return el("details", { class: "history-game", "data-game-id": game.id },
    el("summary", {}, `#${game.id} ${game.title} — ${started} — ${resultText(game.result)}`),
    el("figure", { class: "chart-figure" }, el("figcaption", {}, game.chart.title), chartSvg(game.chart)),
    links, table);
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function niceScale(values, whole) {
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  const raw = ((high - low) * 1.08) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  if (whole) step = Math.max(1, Math.ceil(step));
  return { low: Math.floor(low / step) * step, high: Math.ceil((high * 1.08) / step) * step, step };
}

/** The export's chart, drawn in the page: panels over one x axis, each with its y axis, ticks,
 * labels, reference marks and legend. */
function chartSvg(chart) {
  // Drawn for a phone's width (the text stays readable when the SVG is scaled down to one);
  // a laptop scales it up.
  const width = 440;
  const left = 44;
  const right = width - 8;
  const panelHeight = 140;
  const head = 10;
  const gap = 44;
  const height = head + chart.panels.length * (panelHeight + gap) + 30;
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": chart.title });
  root.append(svg("title", {}, chart.title));
  const xs = chart.panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([x]) => x)))
    .concat(chart.x_ticks.map(([x]) => x));
  const xLow = xs.length ? Math.min(...xs) : 0;
  const xHigh = xs.length ? Math.max(...xs) : 0;
  const slot = (right - left) / (xHigh - xLow + 1);
  const centre = (x) => left + (x - xLow + 0.5) * slot;
  const labels = new Map(chart.x_ticks.length ? chart.x_ticks : Array.from({ length: xHigh - xLow + 1 }, (_, i) => [xLow + i, String(xLow + i)]));
  const widest = Math.max(...[...labels.values()].map((l) => l.length * 7), 7) + 4;
  const every = [1, 2, 5, 10, 20, 50, 100, 1000].find((n) => n * slot >= widest) ?? 1000;
  let top = head + 18;
  chart.panels.forEach((panel, index) => {
    const bottom = top + panelHeight;
    const values = panel.series.flatMap((s) => s.points.map(([, y]) => y)).concat(panel.marks.map((m) => m.value));
    const scale = niceScale(values, panel.whole);
    const y = (v) => bottom - ((v - scale.low) / (scale.high - scale.low)) * panelHeight;
    root.append(svg("text", { x: 4, y: top - 9, class: "axis-label" }, panel.y_label));
    for (let tick = scale.low; tick <= scale.high + scale.step / 1000; tick += scale.step) {
      root.append(svg("line", { x1: left, x2: right, y1: y(tick), y2: y(tick), class: "grid" }),
        svg("text", { x: left - 6, y: y(tick) + 4, class: "tick", "text-anchor": "end" }, String(Math.round(tick * 100) / 100)));
    }
    const bars = panel.series.filter((s) => s.kind === "bar");
    panel.series.forEach((series) => {
      if (series.kind === "bar") {
        const place = bars.indexOf(series);
        const barWidth = Math.max((slot * 0.7) / bars.length, 1);
        for (const [x, v] of series.points) {
          const [y0, y1] = [y(v), y(0)].sort((a, b) => a - b);
          root.append(svg("rect", { x: centre(x) - slot * 0.35 + place * barWidth, y: y0, width: barWidth - 1,
            height: Math.max(y1 - y0, 0.5), fill: series.colour }, null));
        }
      } else {
        let points = series.points.map(([x, v]) => [centre(x), y(v)]);
        if (series.kind === "step" && points.length) {
          const half = slot / 2;
          const stepped = [[points[0][0] - half, points[0][1]]];
          points.forEach(([x, v], i) => {
            stepped.push([x + half, v]);
            if (i + 1 < points.length) stepped.push([x + half, points[i + 1][1]]);
          });
          points = stepped;
        }
        root.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none",
          stroke: series.colour, "stroke-width": 2.5 }));
      }
    });
    for (const mark of panel.marks) {
      root.append(svg("line", { x1: left, x2: right, y1: y(mark.value), y2: y(mark.value), class: "mark" }),
        svg("text", { x: right - 4, y: y(mark.value) - 4, class: "mark-label", "text-anchor": "end" }, mark.label));
    }
    if (panel.series.length > 1) {
      let x = left + 4;
      for (const series of panel.series) {
        root.append(svg("rect", { x, y: top + 4, width: 10, height: 10, fill: series.colour }),
          svg("text", { x: x + 14, y: top + 13, class: "legend" }, series.name));
        x += series.name.length * 7.5 + 30;
      }
    }
    root.append(svg("polyline", { points: `${left},${top} ${left},${bottom} ${right},${bottom}`, class: "axis" }));
    for (const [x, label] of labels) {
      if ((x - xLow) % every !== 0) continue;
      root.append(svg("text", { x: centre(x), y: bottom + 15, class: "tick", "text-anchor": "middle" }, label));
    }
    if (index === chart.panels.length - 1) {
      root.append(svg("text", { x: (left + right) / 2, y: bottom + 32, class: "axis-label", "text-anchor": "middle" }, chart.x_label));
    }
    top = bottom + gap;
  });
  return root;
}

// -- start ---------------------------------------------------------------------------------

function start() {
  wireViews();
  wireButtons();
  wireSound();
  wirePairing();
  wireScore();
  $("#history-refresh").addEventListener("click", loadHistory);
  renderTimer();
  renderBank();
  checkWhoami();
  loadGames();
  connectEvents();
}

start();
