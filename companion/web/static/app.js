// The table page (issues #15, #20): the box on every phone and laptop at the table.
//
// Plain ES modules, no build step, no network beyond the box itself. This one is the page's
// entry (the event stream, the Box tab's step card and mirror, the buttons, sound, the views
// and the bank); it imports common.js (DOM helpers, the page's state, talking to the box, the
// games' facts), timer.js (the Timer view and its cues), awake.js (keeping the screen on),
// pairing.js (pairing in words), score.js (the Score tab), history.js (the History tab) and
// rules.js (the Rules tab: its own hooks and the #rules/KEY address). It talks only to the API in
// docs/web.md: GET /api/whoami, /api/state, /api/events (Server-Sent Events), /api/frame.png,
// /api/history...; POST /api/line (one protocol line), /api/pair/start, /api/pair.
//
// Stable hooks for the browser tests (web-e2e) — keep them when changing the page:
//   Views        tabs: #tab-box #tab-timer #tab-score #tab-bank #tab-history #tab-rules
//                (role=tab); panels #view-<name>; ?view=timer (or box, score, bank, history,
//                rules) opens one; #rules/KEY opens the Rules view at a section (rules.js).
//   Mirror       #screen-lines (one <li> per display line; the panel's selected row has
//                class "selected"), #frame (the panel's PNG), #link-status ("Live",
//                "Reconnecting…"). The step card: #box-heading, #box-say, #box-choices (li.chosen
//                with aria-current), #box-done (the last action confirmed), #box-then.
//   Buttons      #button-next #button-up #button-down #button-back ([data-button]); a tap sends
//                `press X`, a hold >= the long-press time sends `hold X`; #button-reply shows
//                an `err` reply. Each button's <small> says what it does now (the model's keys).
//   Timer        #view-timer[data-mode=flight|ready|between|over|menu]; #timer-digits
//                (role=timer), #timer-stage (the step's name), #timer-round, #timer-complaints,
//                #timer-state; #timer-say, #timer-choices, #timer-done, #timer-then (the step
//                card); #timer-result with #timer-verdict (WIN / LOSS) and #timer-score;
//                buttons #timer-primary (what NEXT does now), #timer-up, #timer-down,
//                #timer-pause (hold NEXT), #timer-undo (hold BACK), #timer-back, each with
//                data-gesture; #timer-reply (a refusal); live regions #timer-polite and
//                #timer-assertive. #view-timer gets class "last-seconds" in the last 10 s.
//   Settings     #settings (details); #sound-on (aria-pressed), #sound-volume (0-100),
//                #sound-mute, #cue-vibrate, #cue-speak, #wake-on; #wake-status with
//                data-method = wakelock | video | off.
//   Pairing      body[data-access=paired|unpaired|watching]; #pairing (shown until paired),
//                #pair-start, #pair-code, #pair-send, #pair-state (data-state = none |
//                pending | locked), #pair-message.
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
//                aisles included) and data-seat the letter now ('.' empty). The brush palette
//                .palette button.brush[data-brush=cycle|R|W|B|G|Y|.] (role=radio,
//                aria-checked) picks what a tap or a drag (pointer events, touch too) paints:
//                a colour (a tap on a seat of that colour empties it), '.' to erase, or
//                "cycle" (the default: a tap moves a seat on . -> R -> W -> B -> G -> Y -> .).
//                button.fill-row[data-player=P][data-row=R] fills row R with the colour;
//                button#ob-copy-P copies player P-1's plane, #ob-clear-P empties plane P;
//                #ob-counts-P lists that player's passengers.
//                Planes: button#planes-add-goal-P adds a goal card.
//                Now Boarding: #score-source says where the defaults came from (the game on
//                the box, or a past one). After scoring: #score-kept[data-game-id] (kept in
//                History) and its BG Stats block (below).
//   Bank         #bank: one article.bank-player[data-player=NAME] per player.
//   History      #history: one details.history-game[data-game-id=ID] per game, with
//                p.complaint-split (Now Boarding: data-anger, data-vip, data-exit),
//                svg.chart, a.download[data-kind=json|csv|png] and a BG Stats block
//                div.bgstats-block: a.bgstats, p.bgstats-note (says when no app took the
//                link), button.bgstats-toggle and its panel with img.bgstats-qr and
//                .bgstats-text code (the link as text).

import { $, $$, el, fill, page, sendLine, loadGames, gameTitle, keyLabel, wireSetting,
  plural } from "./common.js";
import { renderTimer, wireTimer } from "./timer.js";
import { keepAwake, wireAwake } from "./awake.js";
import { checkWhoami, forgotten, pairWithLink, wirePairing } from "./pairing.js";
import { openScore, wireScore } from "./score.js";
import { loadHistory } from "./history.js";
import { openRules, wireRules } from "./rules.js";

// -- the event stream ----------------------------------------------------------------------

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
  events.addEventListener("open", () => {
    retryMs = 1000;
    setLinkStatus("Live", true);
  });
  events.addEventListener("update", (message) => {
    try { applyUpdate(JSON.parse(message.data)); } catch (error) { console.error(error); }
  });
  events.addEventListener("tune", (message) => {
    try { playTune(JSON.parse(message.data)); } catch (error) { console.error(error); }
  });
  // A "pair" event says some phone's code is on the box, not whose: the pairing form keeps to
  // what this phone asked for (pairing.js).
  events.addEventListener("error", () => {
    setLinkStatus($("#pairing").hidden ? "Reconnecting…" : "Not paired yet", false);
    // The browser retries by itself while the stream is CONNECTING; once CLOSED (the server
    // refused it, e.g. not paired yet) it gives up, so we try again, more slowly each time.
    // An unpaired page asks nothing more of the box until it pairs (no refused requests,
    // no console errors): pairing connects again.
    if (events.readyState === EventSource.CLOSED) {
      events.close();
      checkWhoami().then((access) => {
        if (access === "unpaired") {
          setLinkStatus("Not paired yet", false);
          return;
        }
        setTimeout(connectEvents, retryMs);
        retryMs = Math.min(retryMs * 2, 15000);
      });
    }
  });
}

/** Ask the box who this page is, then open what it may use: everything when trusted or
 * paired, the screen alone when the box lets anyone watch, only the pairing form else. */
async function admit() {
  let access = await checkWhoami();
  // Opened from the QR code on the box: it pairs with the secret of the link.
  if (await pairWithLink(access)) access = "paired";
  if (access === "unpaired") {
    setLinkStatus("Not paired yet", false);
    return;
  }
  loadGames();
  connectEvents();
}

function applyUpdate(update) {
  if (update.state) {
    page.state = update.state;
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
  keepAwake(inGame());
}

/** Whether a game is in play (started, not over): the screen stays on then. */
function inGame() {
  const state = page.state;
  return Boolean(state?.game) && (state.result === null || state.result === undefined);
}

// -- the Box tab: the step card, the mirror, the buttons' words ----------------------------------

function renderScreen() {
  const screen = page.screen;
  const lines = screen?.lines ?? [];
  $("#screen-lines").replaceChildren(...lines.map((line, index) => {
    const selected = index === screen.selected_line;
    return el("li", {
      class: [index === 0 ? "title" : "", selected ? "selected" : ""].join(" ").trim(),
      "aria-current": selected ? "true" : null,
    }, line === "" ? "\u00a0" : line);
  }));
  $("#box-heading").textContent = screen?.heading || screen?.title || "—";
  const choices = screen?.choices ?? [];
  const say = screen?.say || (choices.length ? "" : lines.slice(1).join(" "));
  $("#box-say").textContent = say;
  fill($("#box-choices"), ...choices.map((choice, index) => {
    const chosen = index === screen.chosen;
    return el("li", { class: chosen ? "chosen" : "", "aria-current": chosen ? "true" : null },
      chosen ? el("span", { class: "visually-hidden" }, "Selected: ") : null, choice);
  }));
  $("#box-choices").hidden = !choices.length;
  $("#box-done").textContent = screen?.notice || screen?.done || "";
  $("#box-then").textContent = screen?.then ?? "";
  $("#box-coach").textContent = (screen?.coach ?? []).join(" ");  // the game's warnings
  labelButtons();
}

const BUTTON_WORDS = { next: "NEXT", up: "UP", down: "DOWN", back: "BACK" };

/** Each box button says what it does now, from the model's keys (UP/DOWN on a menu move). */
function labelButtons() {
  for (const node of $$("button.hw")) {
    const name = node.dataset.button;
    const now = keyLabel(name);
    const held = keyLabel(`hold_${name}`);
    const parts = [now, held ? `hold: ${held}` : ""].filter(Boolean);
    // The visible words are the button's name (no aria-label that could say otherwise).
    node.replaceChildren(BUTTON_WORDS[name], ...parts.flatMap((part) => [" ", el("small", {}, part)]));
  }
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

// -- the Settings panel: inside the screen, under its button ---------------------------------

function placeSettings() {
  const settings = $("#settings");
  if (!settings.open) return;
  const below = settings.querySelector("summary").getBoundingClientRect().bottom;
  document.documentElement.style.setProperty("--settings-top", `${Math.round(below + 4)}px`);
}

function wireSettingsPanel() {
  $("#settings").addEventListener("toggle", placeSettings);
  window.addEventListener("resize", placeSettings);
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
  if (name === "score") openScore();
  if (name === "rules") openRules();
  const url = new URL(window.location.href);
  url.searchParams.set("view", name);
  if (name !== "rules" && url.hash.startsWith("#rules")) url.hash = "";
  history.replaceState(null, "", url);
}

function wireViews() {
  for (const tab of $$("[role=tab][data-view]")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  const wanted = window.location.hash.startsWith("#rules") ? "rules"   // rules.js's address
    : new URLSearchParams(window.location.search).get("view");
  showView($(`#view-${wanted}`) ? wanted : "box");
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
          el("li", {}, `${item.asset}: ${item.turns_left === 0 ? "back in use next turn" : `${plural(item.turns_left, "turn")} left`}`)))
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

// -- start ---------------------------------------------------------------------------------

function start() {
  wireViews();
  wireRules(showView);
  wireButtons();
  wireTimer();
  wireSound();
  wireSettingsPanel();
  wireSetting("#cue-vibrate", "vibrate", true);
  wireSetting("#cue-speak", "speak", false);
  wireAwake(inGame);
  wirePairing(() => { $("#button-reply").textContent = ""; admit(); });
  wireScore();
  document.addEventListener("companion:unpaired", forgotten);
  document.addEventListener("companion:games", () => {
    $("#bank-title").textContent = `${gameTitle("flight-plan")} bank`;
    renderTimer();
    renderBank();
  });
  $("#history-refresh").addEventListener("click", loadHistory);
  renderTimer();
  renderBank();
  admit();
}

start();
