// The box's menu as the page's own controls (issue #27, item 3), in the Timer view.
//
// What it promises:
// - The games page (and "Resume a game") is the whole list, one button a row; a tap on a row
//   moves the box's cursor there (UP / DOWN, the shorter way round) and chooses it (NEXT):
//   the box's own menu decides what a row does (a game's options, "Replace the game?", the
//   volume...), so nothing of it is copied here.
// - A game's options page is a form: each option a group of labelled choices with its
//   explanation as a sentence, drawn from the state's `menu.options` (the game's OptionSpec,
//   served by the box: companion/core/game.py option_json), never from a copy in this
//   script. An option shown only with another's value (`shown_when`) shows and hides as that
//   value changes here. "Start game" sends `new GAME key=value ...` with every option the
//   menu can change; the box remembers them for the next game (per game, per box).
// - Options marked `more` fold under "More options" (a <details>, closed), so the form asks
//   its questions first and Start stays in view on a phone (issue #35); a choice's own line
//   (`notes`) shows under its group, and a value that `suggests` another option's value sets
//   it and says why (a first game at pace=teach: no VIP cards).
// - No key hints of the panel ("UP/DN change", "option 1 of 6") are ever drawn.

import { $, el, fill, page, sendLine } from "./common.js";

/** The options form as the player left it: one draft per options page opened. */
const draft = { game: null, values: {} };

/** Which menu page the page draws as its own controls ("list", "options") or null. */
export function menuPage(state) {
  const menu = state?.menu;
  if (!menu) return null;
  if (menu.page === "options" && Array.isArray(menu.options)) return "options";
  if (menu.page === "games" || menu.page === "history") return "list";
  return null;
}

/** A choice's value in words: "on" -> "On", "official" -> "Official", "4" -> "4". */
function choiceWords(value) {
  return value ? value[0].toUpperCase() + value.slice(1) : value;
}

/** The explanation as a sentence: a capital first letter, a full stop at the end. */
export function sentence(text) {
  const trimmed = String(text ?? "").trim();
  if (!trimmed) return "";
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

function shown(option, values) {
  const when = option.shown_when;
  return !when || values[when[0]] === when[1];
}

// -- the games page and past games: the whole list ---------------------------------------------

let moving = false;

async function chooseRow(index) {
  if (moving) return;
  const count = page.screen?.choices?.length ?? 0;
  const cursor = page.screen?.chosen ?? 0;
  if (!count) return;
  moving = true;
  $("#timer-menu").setAttribute("aria-busy", "true");
  try {
    const down = (index - cursor + count) % count;
    const [line, times] = down <= count - down ? ["press down", down] : ["press up", count - down];
    for (let step = 0; step < times; step += 1) {
      const reply = await sendLine(line);
      if (reply.startsWith("err")) return refused(reply);
    }
    refused(await sendLine("press next"));
  } finally {
    moving = false;
    $("#timer-menu").removeAttribute("aria-busy");
  }
}

function refused(reply) {
  $("#timer-reply").textContent = reply.startsWith("err")
    ? reply.replace(/^err \S+ /, "The box refused: ") : "";
}

function renderList(screen) {
  const choices = screen?.choices ?? [];
  fill($("#timer-menu"), ...choices.map((choice, index) => {
    const chosen = index === screen.chosen;
    return el("li", {}, el("button", {
      type: "button", class: `menu-row${chosen ? " chosen" : ""}`, "data-index": index,
      "aria-current": chosen ? "true" : null, onclick: () => chooseRow(index),
    }, choice));
  }));
}

// -- a game's options: a form ------------------------------------------------------------------

function suggest(option, value) {
  for (const [when, key, suggested, why] of option.suggests ?? []) {
    if (when !== value) continue;
    draft.values[key] = suggested;
    const input = $(`#timer-options input[name="option-${key}"][value="${suggested}"]`);
    if (input) input.checked = true;
    draft.why = why;
    return;
  }
  draft.why = "";
}

function optionGroup(option) {
  const name = `option-${option.key}`;
  const explain = sentence(option.explain);
  const notes = option.notes ?? {};
  return el("fieldset", { class: "option", "data-option": option.key,
    "aria-describedby": explain ? `${name}-explain` : null },
  el("legend", {}, option.label),
  el("div", { class: "option-choices" }, ...option.choices.map((value) => el("label",
    { class: "option-choice" },
    el("input", { type: "radio", name, value, checked: draft.values[option.key] === value,
      onchange: () => { draft.values[option.key] = value; suggest(option, value); showOptions(); } }),
    el("span", {}, choiceWords(value))))),
  explain ? el("p", { class: "explain", id: `${name}-explain` }, explain) : null,
  Object.keys(notes).length ? el("p", { class: "note", "data-note": option.key }) : null,
  option.suggests?.length ? el("p", { class: "why", "data-why": option.key }) : null);
}

function showOptions() {
  for (const option of page.state?.menu?.options ?? []) {
    const group = $(`#timer-options [data-option="${option.key}"]`);
    if (group) group.hidden = !shown(option, draft.values);
    const note = $(`#timer-options [data-note="${option.key}"]`);
    if (note) note.textContent = sentence(option.notes?.[draft.values[option.key]] ?? "");
    const why = $(`#timer-options [data-why="${option.key}"]`);
    if (why) why.textContent = draft.why ?? "";
  }
}

function renderOptions(menu) {
  if (draft.game !== menu.game || !$("#timer-options").hasChildNodes()) {
    draft.game = menu.game;
    draft.values = { ...menu.values };
    for (const option of menu.options) {
      if (!option.choices.includes(draft.values[option.key])) draft.values[option.key] = option.default;
    }
    draft.why = "";
    // A choice of one (the seed: only 'new' sets another) is not asked on the page.
    const offered = menu.options.filter((option) => option.choices.length > 1);
    const asked = offered.filter((option) => !option.more).map(optionGroup);
    const folded = offered.filter((option) => option.more).map(optionGroup);
    fill($("#timer-options"), ...asked, folded.length ? el("details", { class: "more-options" },
      el("summary", {}, "More options"), ...folded) : null);
  }
  showOptions();
}

/** The `new` line for the options as the form has them: each option the menu can change, at
 * its value here, or at its default while it is hidden (as the box's menu starts it). */
export function newGameLine(menu, values = draft.values) {
  const given = menu.options.filter((option) => option.choices.length > 1)
    .map((option) => `${option.key}=${shown(option, values) ? values[option.key] : option.default}`);
  return [`new ${menu.game}`, ...given].join(" ");
}

export async function startGame() {
  const menu = page.state?.menu;
  if (menuPage(page.state) !== "options") return;
  refused(await sendLine(newGameLine(menu)));
}

/** Back from the options page to the games list: BACK once for each option the box's menu
 * passed (its cursor), and once more. */
export async function leaveOptions() {
  const menu = page.state?.menu;
  if (menuPage(page.state) !== "options") return;
  const before = menu.options.filter((option, index) => index < menu.cursor
    && shown(option, menu.values)).length;
  for (let step = 0; step <= before; step += 1) {
    const reply = await sendLine("press back");
    if (reply.startsWith("err")) return refused(reply);
  }
  return refused("");
}

// -- drawing -----------------------------------------------------------------------------------

/** Draw the menu's page as the page's controls; whether this page draws it (the card's own
 * list and words then stand aside). */
export function renderMenu(state, screen) {
  const kind = menuPage(state);
  $("#timer-menu").hidden = kind !== "list";
  $("#timer-options").hidden = kind !== "options";
  if (kind !== "options") draft.game = null;
  if (kind === "list") renderList(screen);
  if (kind === "options") renderOptions(state.menu);
  return kind;
}
