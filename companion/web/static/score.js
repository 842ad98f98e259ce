// The Score tab: a form per game, Overbooked's seat grids, and the box's verdict.
// Stable hooks: see the header of app.js ("Score entry").

import { $, $$, el, fill, page, getJson, sendLine, loadGames, gameTitle, gameList, games,
  plural } from "./common.js";
import { bgstatsBlock } from "./history.js";

const SEAT_CYCLE = [".", "R", "W", "B", "G", "Y"];
const SEAT_NAMES = {
  ".": "empty", R: "couple (red)", W: "child (white)", B: "friend (blue)",
  G: "friend (green)", Y: "friend (yellow)",
};
// The brushes for painting seats: a colour (tap or drag across seats to paint it; a tap on a
// seat that already has it empties that seat), the eraser, or the cycle (each tap moves a seat
// on through . R W B G Y: the page's first way, kept for the keyboard and old habits).
const BRUSHES = [
  ["cycle", "↻", "Cycle"], ["R", "R", "Couple"], ["W", "W", "Child"], ["B", "B", "Blue"],
  ["G", "G", "Green"], ["Y", "Y", "Yellow"], [".", "∅", "Empty"],
];
const BOARDS = {
  "1-3-player": [3, 4, 3],
  "4-player": [4, 4],
};
const ROWS = 5;

/** Call ``handler`` when ``node`` is tapped or clicked, once. A pointer acts on its release
 * over the node it went down on: a browser may swallow the click of a quick tap that follows
 * a drag (Chromium does, on touch), and a tap on the palette right after painting a row must
 * not be lost. A click from the keyboard (detail 0) acts too. */
function onTap(node, handler) {
  let down = null;
  tapped.set(node, handler);
  node.addEventListener("pointerdown", (event) => { down = event.pointerId; });
  node.addEventListener("pointerup", (event) => {
    if (down !== event.pointerId || (event.pointerType === "mouse" && event.button !== 0)) return;
    down = null;
    handler(event);
  });
  node.addEventListener("pointercancel", () => { down = null; });
  node.addEventListener("click", (event) => { if (event.detail === 0) handler(event); });
  return node;
}

// A tap that lands while the page is scrolling (its own smooth scroll, a fling) stops the
// scroll, and Chromium sends its pointer events to the scroller (the page's root), never to
// the button under the finger: no pointerup there, no click (issue #27, item 9: the first "+"
// after the page scrolled itself was lost). Such a tap, one that did not move, is given to
// the tap target under the finger where it ends.
const tapped = new WeakMap();
const TAP_SLOP_PX = 10;
let stray = null;

function wireStrayTaps() {
  document.addEventListener("pointerdown", (event) => {
    // Only a pointer the browser gave to the page's root, where a scroll's taps go.
    const toRoot = event.target === document.documentElement || event.target === document.body;
    stray = event.pointerType !== "mouse" && toRoot
      ? { id: event.pointerId, x: event.clientX, y: event.clientY } : null;
  }, true);
  document.addEventListener("pointerup", (event) => {
    const start = stray;
    stray = null;
    if (!start || start.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > TAP_SLOP_PX) return;
    const target = closestTapTarget(document.elementFromPoint(event.clientX, event.clientY));
    if (target && !target.disabled) tapped.get(target)(event);
  }, true);
  document.addEventListener("pointercancel", () => { stray = null; }, true);
}

/** The tap target (a node given to onTap) at or above ``node``, or null. */
function closestTapTarget(node) {
  for (let at = node; at && at !== document; at = at.parentNode) {
    if (tapped.has(at)) return at;
  }
  return null;
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
    // onTap, not onclick: a tap while the page scrolls (its own smooth scroll, a fling)
    // stops the scroll and Chromium sends no click for it; the pointer's release counts.
    onTap(el("button", { type: "button", "aria-label": `${label}: less` }, "−"), () => bump(-1)),
    input,
    onTap(el("button", { type: "button", "aria-label": `${label}: more` }, "+"), () => bump(1)));
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

/** The games this page can score, in its order, with what each form enters. */
function scoreForms() {
  return SCORE_FORMS.filter(([game]) => games.list.some((facts) => facts.name === game));
}

function fillScoreGames() {
  const choice = $("#score-game");
  if (choice.options.length) return;
  // No game is chosen before the player or the box says which (issue #36): a fresh box opens
  // on the list to pick from, never on the first form only because it is first.
  choice.append(el("option", { value: "" }, "Choose a game"),
    ...scoreForms().map(([game, what]) => el("option", { value: game }, `${gameTitle(game)}${what}`)));
}

/** The form's place before a game is chosen: the games to pick from, a button each. */
function buildPicker(form) {
  form.append(el("p", { class: "pick-ask" }, "Which game do you want to score?"),
    el("ul", { class: "score-pick", "aria-label": "Games to score" },
      ...scoreForms().map(([game, what]) => el("li", {}, el("button", {
        type: "button", class: "pick", "data-game": game,
        onclick: () => { $("#score-game").value = game; chosenByHand = true; buildScoreForm(); },
      }, `${gameTitle(game)}${what}`)))));
}

// Whether the player chose the form's game: then the tab keeps it; until then it follows the
// box's game.
let chosenByHand = false;

/** The game the Score tab opens on: the game in play, or the one just played (the box keeps
 * it after its end), else the newest game in History that has a form; null when none has. */
async function latestGame() {
  const hasForm = (game) => SCORE_FORMS.some(([name]) => name === game);
  if (hasForm(page.state?.game)) return page.state.game;
  if (page.state?.game) return null;
  const { ok, body } = await getJson("/api/history").catch(() => ({ ok: false }));
  return (ok && body?.games?.find((past) => hasForm(past.game))?.game) ?? null;
}

/** The Score tab was opened: its form is the game just played or in play (issue #27),
 * unless the player chose another here. */
export async function openScore() {
  await loadGames();
  fillScoreGames();
  const choice = $("#score-game");
  if (!chosenByHand) {
    const latest = await latestGame();
    if (latest && choice.value !== latest && !chosenByHand) {
      choice.value = latest;
      buildScoreForm();
      return;
    }
  }
  if (!$("#score-form").hasChildNodes()) buildScoreForm();
}

/** A scorer's category key in words: "boarded-cubes" -> "Boarded cubes", "unserved-vips" ->
 * "Unserved VIPs" (issue #27: no raw field names on the page). */
export function inWords(key) {
  const words = String(key).replace(/[-_]+/g, " ").trim()
    .replace(/\bvips?\b/gi, (vip) => (vip.length === 4 ? "VIPs" : "VIP"))
    .replace(/\bvp\b/gi, "VP");
  return words ? words[0].toUpperCase() + words.slice(1) : words;
}

let builds = 0;

/** Draw the form of the game #score-game names. Only the newest call draws: a form that waits
 * for the box (one prefilled from the last game's count) must not replace the form the player
 * chose while it waited, drawn before that answer came. */
export async function buildScoreForm(prefill = null) {
  const build = ++builds;
  await loadGames();
  if (build !== builds) return;
  fillScoreGames();
  const game = $("#score-game").value;
  const picking = game === "";
  $("#score-send").hidden = picking;
  $("#score-load").hidden = picking;
  if (picking) {
    $("#score-form").replaceChildren();
    $("#score-result").replaceChildren();
    buildPicker($("#score-form"));
    return;
  }
  if (!builders[game]) return;  // the box has not said which games there are (yet)
  let given = prefill;
  if (given === null && game === "now-boarding") given = await nowBoardingCount();
  if (build !== builds) return;  // chosen again meanwhile: the newer form stands
  const form = $("#score-form");
  form.replaceChildren();
  $("#score-error").textContent = "";
  $("#score-result").replaceChildren();
  builders[game](form, given);
}

/** The final count of the game the box just played (now-boarding): the game in play, else the
 * newest one in history. Complaints are split by source as the box filed them (angry
 * passengers, unserved VIPs); the undelivered passengers are the exit step's count, whose
 * complaints the score adds itself. Null when the box has played none. */
async function nowBoardingCount() {
  const sum = (rows, key) => rows.reduce((total, row) => total + (row?.[key] ?? 0), 0);
  const { ok, body } = await getJson("/api/state").catch(() => ({ ok: false }));
  const state = ok ? body : page.state;
  if (state?.game === "now-boarding" && Array.isArray(state.complaints_by_round)) {
    const rows = state.complaints_by_round;
    return { players: state.players, complaints: sum(rows, "anger"), undelivered: state.undelivered ?? 0,
      unserved_vips: sum(rows, "vip"), from: `the game on the box (round ${state.round})` };
  }
  const past = await getJson("/api/history").catch(() => ({ ok: false }));
  const game = past.ok ? past.body.games.find((entry) => entry.game === "now-boarding" && entry.record) : null;
  if (!game) return null;
  const rows = game.record.rounds.map((round) => round.complaints_by_source);
  return { players: game.record.players, complaints: sum(rows, "anger"),
    undelivered: game.record.undelivered ?? 0, unserved_vips: sum(rows, "vip"), from: `game #${game.id}` };
}

function buildNowBoarding(form, prefill) {
  form.append(
    el("p", { id: "score-source", class: "hint" }, prefill?.from
      ? `Loaded from ${prefill.from}: check it, then score it.`
      : `The box has played no ${gameTitle("now-boarding")} game: enter the final count.`),
    stepper("Players", "players", { value: prefill?.players ?? 3, min: 2, max: 5 }),
    stepper("Complaints filed", "complaints", { value: prefill?.complaints ?? 0 }),
    stepper("Passengers undelivered", "undelivered", { value: prefill?.undelivered ?? 0 }),
    stepper("VIPs not served", "unserved_vips", { value: prefill?.unserved_vips ?? 0 }),
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
      textField("Name", `score-${index}-name`, player.name),
      stepper("Total", "total", {
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
      stepper("Own cubes boarded", "boarded", { player: index, value: player.boarded ?? 0, max: 5 }),
      el("div", { class: "goals", "data-player": index },
        ...(player.goals ?? []).map((vp, goal) =>
          stepper(`Goal card ${goal + 1}: VP`, `goal-${goal}`, { player: index, value: vp }))),
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

const overbooked = { active: 0, brush: "cycle", drag: null };

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
    ...players.map((player, index) => onTap(el("button", {
      type: "button", role: "tab", id: `ob-tab-${index}`, "data-player": index,
      "aria-selected": String(index === overbooked.active), "aria-controls": `ob-player-${index}`,
    }, player.name || `Player ${index + 1}`), () => { overbooked.active = index; selectPlayerTab(); })));
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
    brushPalette(),
    tabs,
    ...players.map((player, index) => el("section", {
      class: "ob-player", id: `ob-player-${index}`, role: "tabpanel", "aria-labelledby": `ob-tab-${index}`,
      hidden: index !== overbooked.active, "data-player": index,
    },
    textField("name", `score-${index}-name`, player.name),
    seatGrid(player.seats, index),
    el("div", { class: "plane-tools" },
      index > 0 ? onTap(el("button", { type: "button", id: `ob-copy-${index}`, "data-player": index },
        `Copy ${players[index - 1].name || `Player ${index}`}'s plane`), () => copyPlane(index - 1, index)) : null,
      onTap(el("button", { type: "button", id: `ob-clear-${index}`, "data-player": index }, "Clear plane"),
        () => paintSeats(index, $$(`#ob-player-${index} .seat`), "."))),
    el("p", { class: "counts", id: `ob-counts-${index}`, "aria-live": "polite" }),
    stepper("Passengers overbooked", "overbooked", { player: index, value: player.overbooked }),
    stepper("Vouchers left", "vouchers", { player: index, value: player.vouchers }),
    variant === "advanced" ? stepper("Bonus cards", "bonus_cards", { player: index, value: player.bonus_cards }) : null)));
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

function brushPalette() {
  return el("div", { class: "brush-bar" },
    el("p", { id: "ob-brush-hint", class: "hint" },
      "Pick a colour, then tap or drag across seats; a row's number fills that row."),
    el("div", { class: "palette", role: "radiogroup", "aria-labelledby": "ob-brush-hint" },
      ...BRUSHES.map(([value, mark, name]) => onTap(el("button", {
        type: "button", role: "radio", class: "brush", "data-brush": value,
        "aria-checked": String(value === overbooked.brush),
        "aria-label": value === "cycle" ? "Cycle: each tap moves a seat on"
          : `${name}: ${SEAT_NAMES[value]}`,
      }, el("span", { class: "brush-mark", "aria-hidden": "true" }, mark),
      el("span", { class: "brush-name", "aria-hidden": "true" }, name)), () => pickBrush(value)))));
}

function pickBrush(value) {
  overbooked.brush = value;
  for (const brush of $$(".palette .brush")) {
    brush.setAttribute("aria-checked", String(brush.dataset.brush === value));
  }
}

/** What a tap on ``seat`` paints: the next letter (cycle), the brush, or empty when the seat
 * already has the brush's colour. */
function brushValue(seat) {
  const letter = seat.dataset.seat;
  if (overbooked.brush === "cycle") {
    return SEAT_CYCLE[(SEAT_CYCLE.indexOf(letter) + 1) % SEAT_CYCLE.length];
  }
  return letter === overbooked.brush ? "." : overbooked.brush;
}

function paintSeats(player, seats, letter) {
  for (const seat of seats) {
    seat.dataset.seat = letter;
    describeSeat(seat);
  }
  updateCounts(player);
}

function copyPlane(from, to) {
  const source = $$(`#ob-player-${from} .seat`);
  $$(`#ob-player-${to} .seat`).forEach((seat, index) => {
    seat.dataset.seat = source[index]?.dataset.seat ?? ".";
    describeSeat(seat);
  });
  updateCounts(to);
}

function fillRow(player, row) {
  if (overbooked.brush === "cycle") {
    $("#ob-brush-hint").textContent = "Pick a colour first: a row's number fills the row with it.";
    return;
  }
  paintSeats(player, $$(`#ob-player-${player} .seat[data-row="${row}"]`), overbooked.brush);
}

function seatGrid(rows, player) {
  // A group of plain buttons (not an ARIA grid): each seat stays a button by its role and name.
  // Drawn with the plane's rows as columns, so every seat is at least 44 px wide and high on
  // a 360 px phone; a row's number is a button that fills the row with the chosen colour.
  const tracks = ["auto", ...[...rows[0] ?? ""].map((letter) => (letter === "|" ? "14px" : "46px"))];
  const grid = el("div", { class: "plane", role: "group", "aria-label": `Player ${player + 1}'s plane` });
  grid.style.gridTemplateRows = tracks.join(" ");  // CSSOM: the page's CSP refuses style="..."
  rows.forEach((row, r) => {
    const line = el("div", { class: "plane-row", "data-row": r + 1 },
      onTap(el("button", {
        type: "button", class: "fill-row", "data-player": player, "data-row": r + 1,
        "aria-label": `Fill row ${r + 1} with the chosen colour`,
      }, String(r + 1)), () => fillRow(player, r + 1)));
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
      // A click from the keyboard (detail 0) paints; a pointer's tap painted on pointerdown.
      seat.addEventListener("click", (event) => {
        if (event.detail === 0) paintSeats(player, [seat], brushValue(seat));
      });
      line.append(seat);
    });
    grid.append(line);
  });
  // Pointer events work for a mouse, a pen and touch alike. A drag paints every seat the
  // pointer passes over with what the first seat got (touch captures the pointer to the first
  // seat, so the seat under the finger is found by its position).
  grid.addEventListener("pointerdown", (event) => {
    const seat = event.target.closest?.("button.seat");
    if (!seat || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    const value = brushValue(seat);
    overbooked.drag = { player, value, last: seat, pointer: event.pointerId };
    paintSeats(player, [seat], value);
  });
  grid.addEventListener("pointermove", (event) => {
    const drag = overbooked.drag;
    if (!drag || drag.player !== player || drag.pointer !== event.pointerId) return;
    if (event.pointerType === "mouse" && event.buttons === 0) { overbooked.drag = null; return; }
    const under = document.elementFromPoint(event.clientX, event.clientY)?.closest?.("button.seat");
    if (!under || under === drag.last || Number(under.dataset.player) !== player) return;
    drag.last = under;
    paintSeats(player, [under], drag.value);
  });
  const end = () => { overbooked.drag = null; };
  grid.addEventListener("pointerup", end);
  grid.addEventListener("pointercancel", end);
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
    const result = JSON.parse(reply.slice(2).trim() || "{}");
    renderResult(result);
    await showKept(result);
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
    parts.push(el("div", { class: "table-scroll", tabindex: "0", role: "region",
      "aria-label": "The scores" }, el("table", {},
      el("caption", {}, `${gameTitle(result.game)}: the scores`),
      el("thead", {}, el("tr", {}, ...["#", "Player", "Total", ...categories.map(inWords)]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...ordered.map((player) => el("tr", {},
        el("td", {}, places.get(player.name) ?? ""), el("th", { scope: "row" }, player.name),
        el("td", { class: "total" }, player.total),
        ...categories.map((key) => el("td", {}, player.breakdown?.[key] ?? "")))))))); 
  }
  if (result.game === "now-boarding") {
    parts.push(el("p", { class: `verdict ${result.result}` },
      `${result.result === "win" ? "WIN" : "LOSS"}: `
      + `${plural(result.complaints_total, "complaint")} in all`),
    el("ul", {}, ...Object.entries(result.breakdown ?? {}).map(([key, value]) =>
      el("li", {}, `${inWords(key)}: ${value}`))));
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

/** The box keeps every scored game in history: find this one there (the newest game whose
 * result is this result) and offer its BG Stats link, its text and its QR code. */
async function showKept(result) {
  const { ok, body } = await getJson("/api/history").catch(() => ({ ok: false }));
  const same = JSON.stringify(result);
  const kept = ok ? body.games.find((game) => game.options?.entered === "score"
    && JSON.stringify(game.result) === same) : null;
  const out = $("#score-result");
  if (!kept) {
    out.append(el("p", { class: "hint" }, "Scored; History has it once the box has saved it."));
    return;
  }
  out.append(el("p", { id: "score-kept", class: "hint", "data-game-id": kept.id },
    `Kept in History as game #${kept.id}.`), kept.bgstats ? bgstatsBlock(kept) : null);
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

export function wireScore() {
  wireStrayTaps();
  $("#score-game").addEventListener("change", () => { chosenByHand = true; buildScoreForm(); });
  $("#score-send").addEventListener("click", sendScore);
  $("#score-load").addEventListener("click", loadFromBox);
}

