// The Timer view (issue #20): a whole game run from a phone propped up by the board.
//
// What it promises:
// - One big primary button that does what NEXT does now, labelled from the screen model's
//   `keys` ("Start flight", "End flight", "Next step"); pause (hold NEXT) and undo (hold BACK)
//   and UP / DOWN beside it whenever the box says they do something. A tap sends the
//   gesture's protocol line: nothing here knows the game's rules.
// - Modes (#view-timer[data-mode]): "flight" (the countdown, huge), "ready" (the flight's time
//   and what to do before it), "between" (a calm step card: the step's name, its whole
//   instruction, what comes next; no digits, so never "TIME UP" or "0:00"), "over" (WIN or
//   LOSS with the score), "menu" (the box's menu as a list).
// - The last 10 s of a running countdown change size, pulse and say so in words
//   ("10 seconds left"), not by colour alone; role="timer" on the digits; one polite
//   announcement at 10 s and one assertive when the countdown reaches zero ("Time is up";
//   a flight ended early by NEXT is a polite "Flight ended" and a short buzz), through live
//   regions of their own;
//   vibration (where the browser has it) and spoken cues (speechSynthesis), each with an off
//   switch in Settings.
// - A step card shows the picture the state names (`picture`: the table set up, a plane),
//   drawn by the box; the page draws nothing of its own.
// - A lesson (pace=teach, the state's `lesson`) is a "between" card: its title, its text,
//   "Got it" (NEXT) and a "More" link to its section of the Rules view (#rules/<section>).
// - Now Boarding's upgrades page (one page for every player, issue #35) is bought in three
//   taps: who (a player button), what (a row of the list) and the buy button (hold NEXT);
//   a tap moves the box's cursor there with UP / DOWN, the shorter way round.

import { $, el, fill, page, sendLine, keyLabel, setting, gameTitle, GESTURE_LINES } from "./common.js";
import { menuPage, renderMenu, startGame, leaveOptions } from "./menu.js";

const LAST_SECONDS = 10;
const SECONDARY = ["up", "down", "hold_next", "hold_back", "back"];
const BUTTON_IDS = { up: "#timer-up", down: "#timer-down", hold_next: "#timer-pause",
  hold_back: "#timer-undo", back: "#timer-back" };

export function clock(seconds, up = false) {
  const whole = Math.max(0, up ? Math.floor(seconds + 1e-9) : Math.ceil(seconds - 1e-9));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

// A flight without a clock (a teach game's practice flight, timer=off) counts up here: the box
// sends no news while nothing on its panel changes, so the page moves its own digits on from
// the last `elapsed` it was told (issue #35: a clock stuck at 0:01 looked frozen).
const counting = { base: null, at: 0, ticker: null };

function countUp(state, mode) {
  const on = mode === "flight" && typeof state?.elapsed === "number"
    && !(state.timer?.duration > 0) && (state.timer?.state ?? "idle") === "idle";
  if (!on) {
    clearInterval(counting.ticker);
    Object.assign(counting, { base: null, ticker: null });
    return "";
  }
  if (counting.base !== state.elapsed) {
    Object.assign(counting, { base: state.elapsed, at: performance.now() });
  }
  const shown = () => clock(counting.base + (performance.now() - counting.at) / 1000, true);
  counting.ticker ??= setInterval(() => { $("#timer-digits").textContent = shown(); }, 1000);
  return shown();
}

/** Which face the Timer view shows for this state and screen. */
export function timerMode(state, screen) {
  const keys = screen?.keys ?? {};
  if (!state?.game || state.menu) return "menu";  // the box's menu, over a game or before one
  if (!Object.keys(keys).length && screen?.choices?.length) return "menu";
  if (state.lesson) return "between";  // a lesson (pace=teach) is a calm card, even at the end
  if (state.result !== null && state.result !== undefined) return "over";
  if (state.game === "now-boarding") {
    if (state.step === "flight") return "flight";
    if (state.step === "ready") return "ready";
    return "between";
  }
  const timer = state.timer;
  // v3 keeps its last Departure's countdown (expired) through the Arrival, the Purchase and
  // the day's end: only the Departure itself is a flight.
  if (state.game === "now-boarding-v3" && state.step !== "departure") return "between";
  if (timer && timer.duration > 0) return timer.state === "idle" ? "ready" : "flight";
  return "between";
}

// -- cues: heard and felt, not only seen -------------------------------------------------------

const cues = { remaining: null, state: null, step: null, warned: false };

function announce(text, assertive) {
  const region = $(assertive ? "#timer-assertive" : "#timer-polite");
  region.textContent = "";
  // A fresh text node after a clear: screen readers announce the change once.
  requestAnimationFrame(() => { region.textContent = text; });
}

function vibrate(pattern) {
  // Only after the player touched the page: browsers refuse (and complain) before that.
  if (!setting("vibrate", true) || typeof navigator.vibrate !== "function") return;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  navigator.vibrate(pattern);
}

function speak(text) {
  if (!setting("speak", false) || !("speechSynthesis" in window)) return;
  try {
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
  } catch { /* no voice on this device: the words are on screen */ }
}

/** How the last flight ended: "time" (the countdown reached zero) or "next" (ended early),
 * from Now Boarding's last flight or v3's `ended`; a game that says neither, by its clock. */
export function endedBy(state) {
  const said = state?.flights?.at?.(-1)?.ended ?? state?.ended;
  if (said === "time" || said === "next") return said;
  return state?.timer?.state === "expired" ? "time" : "next";
}

/** Compare the news with what the page last saw and cue what changed: 10 s left, the end of a
 * flight (by the clock or by NEXT), maintenance. */
function cue(state) {
  const timer = state?.timer;
  const running = timer?.state === "running";
  const remaining = running ? timer.remaining : null;
  if (running && remaining <= LAST_SECONDS && remaining > 0 && !cues.warned) {
    cues.warned = true;
    announce("10 seconds left", false);
    vibrate([200]);
    speak("ten seconds");
  }
  if (!running || remaining > LAST_SECONDS) cues.warned = running ? false : cues.warned;
  const flightOver = (cues.state === "running" && timer?.state === "expired")
    || (cues.step === "flight" && state?.step && state.step !== "flight");
  if (flightOver) {
    // How the flight ended is the state's to say (the countdown stops as "expired" either
    // way): time is up only when the countdown reached zero, never after a tap on NEXT.
    const byTime = endedBy(state) === "time";
    announce(byTime ? "Time is up: the flight is over" : "Flight ended", byTime);
    vibrate(byTime ? [400, 150, 400] : [80]);
    const said = byTime ? "flight over" : "flight ended";
    speak(state?.phase === "maintenance" ? `${said}. maintenance` : said);
  }
  if (state?.step !== "flight" && cues.step === "flight") cues.warned = false;
  cues.state = timer?.state ?? null;
  cues.step = state?.step ?? null;
}

// -- the view ----------------------------------------------------------------------------------

function roundText(state) {
  const rounds = state?.flights_total ?? null;
  const round = state?.round ?? state?.rounds;
  if (!round) return "";
  const day = typeof state?.day === "number" ? `Day ${state.day}, round` : "Round";
  return `${day} ${round}${rounds ? ` of ${rounds}` : ""}`;
}

function complaintsText(complaints, over) {
  // "One more loses" is a warning while the game goes on; after its end it is no news.
  const warning = complaints === 2 && !over ? ": one more loses" : "";
  return `Complaints ${complaints} of 3${warning}`;
}

// -- Now Boarding's upgrades: who, what, buy ---------------------------------------------------

let moving = false;

/** A list whose rows are tapped, UP / DOWN moving the box's cursor (DOWN: the row after):
 * the upgrades page of the short flow (every player's rows, one after another; `per` a
 * player's), the planes page of setup (a row a player) and "which VIP?" (a row a card).
 * "Which VIP?" opens with no row chosen (`chosen` null, issue #36): DOWN then goes to the
 * first row, UP to the last, as if "none" were a row after the last (`count` one more). */
function upgradeRows(state, screen = page.screen) {
  if (state?.game !== "now-boarding" || state.lesson || !screen?.choices?.length) return null;
  const upgrade = state.upgrade;
  if (state.step === "upgrades" && upgrade && state.options?.flow === "short") {
    const per = upgrade.rows / state.players;
    return { cursor: upgrade.row, count: upgrade.rows, per, player: upgrade.player,
      base: (upgrade.player - 1) * per };
  }
  if ((state.step === "vip" && state.ask === "which")
      || (state.step === "setup" && state.setup_page?.key === "planes")) {
    const count = screen.choices.length;
    if (typeof screen.chosen !== "number") return { cursor: count, count: count + 1, base: 0 };
    return { cursor: screen.chosen, count, base: 0 };
  }
  return null;
}

async function moveTo(target) {
  const rows = upgradeRows(page.state);
  if (!rows || moving) return;
  moving = true;
  try {
    await walk(rows.cursor, target, rows.count);
  } finally {
    moving = false;
  }
}

/** UP / DOWN from row `cursor` to row `target` of a list of `count` (the box wraps), the
 * shorter way round; a refusal is said on the page and ends the walk. */
async function walk(cursor, target, count) {
  const down = (target - cursor + count) % count;
  const [line, times] = down <= count - down ? ["press down", down] : ["press up", count - down];
  for (let step = 0; step < times; step += 1) {
    if (!accepted(await sendLine(line))) return false;
  }
  return true;
}

/** Whether the box accepted a line the page sent for a tap; a refusal is said under the
 * controls (and an accepted line clears the last one said). */
function accepted(reply) {
  const refused = reply.startsWith("err");
  $("#timer-reply").textContent = refused ? reply.replace(/^err \S+ /, "The box refused: ") : "";
  return !refused;
}

/** `pace=brisk`'s maintenance card while it may buy (its `hold_next` is Buy): who buys is a
 * button a player on the card itself, so a purchase takes three taps there as at the steps
 * (issue #36, item 6): the player (opens the upgrades at that player's rows), the row, Buy. */
function briskBuyers(state, screen = page.screen) {
  return state?.game === "now-boarding" && state.step === "turnaround" && !state.lesson
    && Boolean(screen?.keys?.hold_next);
}

/** The brisk card's player button: hold NEXT opens the upgrades page, then UP / DOWN move the
 * box's cursor to the player's first row (read from the box's own state after the opening). */
async function openUpgrades(player) {
  if (moving) return;
  moving = true;
  try {
    if (!accepted(await sendLine("hold next"))) return;
    const reply = await sendLine("state");
    if (!reply.startsWith("ok ")) return;
    const state = JSON.parse(reply.slice(3));
    const upgrade = state.upgrade;
    if (!upgrade) return;
    await walk(upgrade.row, player * (upgrade.rows / state.players), upgrade.rows);
  } finally {
    moving = false;
  }
}

function renderPlayers(state) {
  const rows = upgradeRows(state)?.per ? upgradeRows(state) : null;
  const buyers = !rows && briskBuyers(state);
  const players = $("#timer-players");
  players.hidden = !rows && !buyers;
  if (players.hidden) return fill(players);
  if (buyers) {  // the brisk card: "Buy for" a player, opening the upgrades at their rows
    return fill(players, el("span", { class: "players-lead" }, "Buy for"),
      ...Array.from({ length: state.players }, (_, index) => el("button", {
        type: "button", class: "player-pick", onclick: () => openUpgrades(index),
      }, `P${index + 1}`)));
  }
  fill(players, ...Array.from({ length: state.players }, (_, index) => el("button", {
    type: "button", class: `player-pick${index + 1 === rows.player ? " chosen" : ""}`,
    "aria-pressed": String(index + 1 === rows.player),
    onclick: () => moveTo(index * rows.per),
  }, `P${index + 1}`)));
}

function renderCard(prefix, screen, mode) {
  // A screen without words of its own (a menu page, a game whose view has none yet): the
  // panel's lines under its title, as sentences of the page's size.
  const lines = (screen?.lines ?? []).slice(1).join(" ");
  const say = screen?.say || (screen?.choices?.length ? "" : lines);
  $(`#${prefix}-say`).textContent = say;
  const choices = screen?.choices ?? [];
  // A list whose rows are tapped: the short flow's pages (upgradeRows: a tap moves the box's
  // cursor there across every player's rows), else any list whose row UP / DOWN choose (which
  // VIP, the upgrades); the big button still confirms (issue #36: no hurried tap decides).
  const rows = upgradeRows(page.state);
  const movable = !rows && typeof screen?.chosen === "number" && Boolean(screen?.keys?.up)
    && Boolean(screen?.keys?.down);
  fill($(`#${prefix}-choices`), ...choices.map((choice, index) => {
    const chosen = index === screen.chosen;
    const text = [chosen ? el("span", { class: "visually-hidden" }, "Selected: ") : null, choice];
    const onclick = rows ? () => moveTo(rows.base + index) : movable ? () => moveToRow(index)
      : null;
    const row = onclick && el("button", { type: "button",
      class: "choice-row choice-pick", "data-index": index, onclick }, ...text);
    return el("li", { class: chosen ? "chosen" : "", "aria-current": chosen ? "true" : null },
      ...(row ? [row] : text));
  }));
  renderPlayers(page.state);
  $(`#${prefix}-choices`).hidden = !choices.length;
  const done = screen?.notice || screen?.done || "";
  $(`#${prefix}-done`).textContent = done;
  $(`#${prefix}-then`).textContent = screen?.then ?? "";
  $(`#${prefix}-coach`).textContent = (screen?.coach ?? []).join(" ");  // the game's warnings
}

export function renderTimer() {
  const state = page.state;
  const screen = page.screen;
  const view = $("#view-timer");
  const mode = timerMode(state, screen);
  view.dataset.mode = mode;
  cue(state);

  const timer = state?.timer;
  const running = timer?.state === "running";
  const last = running && timer.remaining <= LAST_SECONDS;
  view.classList.toggle("last-seconds", Boolean(mode === "flight" && last));
  view.classList.toggle("expired", mode === "flight" && timer?.state === "expired");

  const heading = screen?.heading || screen?.title
    || (state?.game ? gameTitle(state.game) : "No game in play");
  $("#timer-stage").textContent = heading;
  $("#timer-round").textContent = roundText(state);
  const complaints = $("#timer-complaints");
  complaints.hidden = typeof state?.complaints !== "number";
  if (!complaints.hidden) {
    const over = state.result !== null && state.result !== undefined;
    complaints.textContent = complaintsText(state.complaints, over);
    complaints.classList.toggle("danger", state.complaints >= 2 && !over);
  }

  // Digits only where a countdown is the news: never between flights or after the game,
  // nor before a flight without a time limit (no "0:00" to read as time up).
  const digits = $("#timer-digits");
  const up = countUp(state, mode);  // a flight without a clock: the page counts it up
  const timed = Boolean(timer && (timer.duration > 0 || timer.state !== "idle"));
  const clockShown = mode === "flight" || (mode === "ready" && timed);
  $("#timer-clock").hidden = !clockShown;
  if (!clockShown) {
    digits.textContent = "";
    $("#timer-state").textContent = "";
  } else if (timed) {
    digits.textContent = clock(mode === "ready" ? timer.duration : timer.remaining);
    $("#timer-state").textContent = mode === "ready" ? "Ready"
      : { running: last ? "10 seconds left!" : "", paused: "Paused",
        expired: "Time is up" }[timer.state] ?? "";
  } else {
    digits.textContent = up;
    $("#timer-state").textContent = mode === "ready" ? "Ready" : "No time limit";
  }

  const result = $("#timer-result");
  result.hidden = mode !== "over";
  if (mode === "over") {
    const won = state.result === "win" || state.result?.won === true;
    const lost = state.result === "lose" || state.result?.won === false;
    $("#timer-verdict").textContent = won ? "WIN" : lost ? "LOSS" : "Game over";
    $("#timer-verdict").dataset.result = won ? "win" : lost ? "lose" : "over";
    $("#timer-score").textContent = screen?.say ?? "";
  }
  renderCard("timer", screen, mode);
  renderLesson(state?.lesson ?? null);
  renderPicture(state?.picture ?? null, mode);
  // The menu's games list and a game's options are the page's own controls (menu.js).
  if (mode === "menu" && renderMenu(state, screen)) {
    $("#timer-choices").hidden = true;
    $("#timer-say").textContent = "";
  } else {
    renderMenu(null, null);
  }
  $("#timer-card").hidden = mode === "flight" && !screen?.notice;
  if (mode === "flight") $("#timer-say").textContent = screen?.say ?? "";
  if (mode === "over") $("#timer-say").textContent = "";
  renderControls(mode);
  markMore();
}

/** A step's area longer than the phone says so: "More below" at its foot until the table
 * has scrolled to its last line (issue #36: a long brisk card hid its end under the buttons). */
function markMore() {
  const main = $(".timer-main");
  main.classList.toggle("more-below", main.scrollHeight - main.scrollTop - main.clientHeight > 2);
}

/** A lesson's card (pace=teach): its text is the screen's `say`, "Got it" the primary button
 * (NEXT); here only the "More" link to its section of the Rules view. */
function renderLesson(lesson) {
  const more = $("#timer-more");
  more.hidden = !lesson?.more;  // a game without a Rules view (v3) has no "More"
  $("#view-timer").classList.toggle("lesson", Boolean(lesson));
  if (!lesson?.more) return;
  const link = $("#timer-more-link");
  link.href = `#rules/${lesson.more}`;
  // Two words on the card (the reading is counted, issue #35); the whole name for a reader.
  link.textContent = "Whole rule";
  link.setAttribute("aria-label", `More: ${lesson.title}, the whole rule`);
}

/** The picture the state names beside the words (the table set up, a plane), drawn by the
 * box from the game's data (GET /api/picture/<name>.svg); only on a step card. */
function renderPicture(picture, mode) {
  const image = $("#timer-picture");
  const shown = Boolean(picture?.src) && mode === "between";
  $("#timer-picture-open").hidden = !shown;
  if (!shown) {
    openPicture(false);
    delete $("#view-timer").dataset.picture;
    return;
  }
  if (image.dataset.src !== picture.src || !$("#view-timer").dataset.picture) {
    image.dataset.src = picture.src;
    image.dataset.full = picture.full ?? picture.src;
    openPicture(false);
  }
  image.alt = picture.alt ?? "";
}

/** A tap on the picture shows it whole (with every fact written under what it is about) at
 * the phone's width; another tap puts the card's compact picture back. */
function openPicture(open) {
  const image = $("#timer-picture");
  $("#view-timer").dataset.picture = open ? "open" : "shown";
  $("#timer-picture-open").setAttribute("aria-expanded", String(open));
  $("#timer-picture-hint").textContent = open ? "Tap to close" : "Tap to enlarge";
  const src = open ? image.dataset.full : image.dataset.src;
  if (src && image.getAttribute("src") !== src) image.src = src;
}

const MENU_LABELS = { next: "Choose", up: "Up", down: "Down", back: "Back" };
// A question of the menu is answered in words: yes or no.
const QUESTION_LABELS = { replace: { next: "Yes, replace it", back: "No, keep it" },
  "power-off": { next: "Yes, power off", back: "No" },
  "table-page": { next: "Pair a phone", back: "Back" } };
const PRIMARY_ORDER = ["start", "next", "back", "hold_next", "up", "down", "hold_back"];

/** What a gesture's button says: the model's label; for a screen that labels nothing (the
 * box's menu) the plain names of what the box does. */
function gestureLabel(gesture, mode) {
  if (Object.keys(page.screen?.keys ?? {}).length) return keyLabel(gesture);
  if (mode === "menu") {
    const own = menuPage(page.state);
    // The games list: its rows are the buttons; BACK only where the box takes it.
    if (own === "list") {
      const back = page.state?.menu?.page === "history" || Boolean(page.state?.game);
      return gesture === "back" && back ? "Back" : "";
    }
    if (own === "options") return { start: "Start game", leave: "Back" }[gesture] ?? "";
    const question = QUESTION_LABELS[page.state?.menu?.page];
    if (question) return question[gesture] ?? "";
    return MENU_LABELS[gesture] ?? "";
  }
  const timer = page.state?.timer?.state;
  return { next: "Next", up: "Up", down: "Down", back: "Back", hold_back: "Undo",
    hold_next: timer === "running" ? "Pause" : timer === "paused" ? "Resume" : "" }[gesture] ?? "";
}

function renderControls(mode) {
  const primary = $("#timer-primary");
  // The big button is the first gesture that does something now (NEXT nearly always): a
  // screen whose NEXT the box would refuse (a goal card with no value yet, an owned route)
  // never offers a NEXT that only earns a refusal.
  // The menu's list is its own big buttons: no primary beside it, only a small Back.
  const listed = mode === "menu" && menuPage(page.state) === "list";
  const primaryGesture = listed ? null
    : PRIMARY_ORDER.find((gesture) => gestureLabel(gesture, mode)) ?? null;
  primary.hidden = primaryGesture === null;
  primary.dataset.gesture = primaryGesture ?? "";
  primary.textContent = primaryGesture ? gestureLabel(primaryGesture, mode) : "";
  for (const gesture of SECONDARY) {
    const button = $(BUTTON_IDS[gesture]);
    // The options form's Back leaves it whole (menu.js), not one option at a time.
    const own = gesture === "back" && gestureLabel("leave", mode) ? "leave" : gesture;
    const text = gestureLabel(own, mode);
    // The upgrades page's rows are tapped (who, what): no Row above / Row below beside them;
    // the brisk card's "Buy for" buttons open the upgrades: no Buy beside them.
    const tapped = ((own === "up" || own === "down") && upgradeRows(page.state))
      || (own === "hold_next" && briskBuyers(page.state));
    button.hidden = !text || own === primaryGesture || Boolean(tapped);
    button.textContent = text;
    // A long hold-NEXT label ("Buy a seat for $9") takes a row of its own, on one line; the
    // other buttons of the row (Row above, Row below, Undo) share the next.
    button.classList.toggle("long", own === "hold_next" && text.length > 16);
    button.dataset.gesture = own;
  }
}

/** Move the box's cursor to row ``index`` of the list shown (UP / DOWN, the shorter way
 * round, as the box wraps), without choosing it. */
async function moveToRow(index) {
  const count = page.screen?.choices?.length ?? 0;
  const cursor = page.screen?.chosen;
  if (moving || !count || typeof cursor !== "number" || index === cursor) return;
  moving = true;
  try {
    await walk(cursor, index, count);
  } finally {
    moving = false;
  }
}

async function sendGesture(gesture) {
  if (gesture === "start") return startGame();
  if (gesture === "leave") return leaveOptions();
  const line = GESTURE_LINES[gesture];
  if (!line) return;
  accepted(await sendLine(line));
}

export function wireTimer() {
  $("#timer-picture-open").addEventListener("click", () => openPicture(
    $("#view-timer").dataset.picture !== "open"));
  $(".timer-main").addEventListener("scroll", markMore, { passive: true });
  window.addEventListener("resize", markMore);
  for (const button of [$("#timer-primary"), ...Object.values(BUTTON_IDS).map((id) => $(id))]) {
    button.addEventListener("click", () => sendGesture(button.dataset.gesture));
  }
}
