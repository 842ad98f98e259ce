// The Rules view (issue #26): the rules of Now Boarding and its VIP variant, in game order,
// with a search field that keeps the sections that mention every word typed and marks them.
//
// The text has one owner: rules-now-boarding.html beside this file (served by the box, fetched
// the first time the view opens: no network beyond the box). Each of its sections is
// <section id="rules-KEY">; the page's address #rules/KEY opens the view at that section, on
// load, on a link's tap (a lesson's "More") and on a change of the address, and the browser's
// Back returns to where the link was tapped.
//
// Stable hooks: #tab-rules, #view-rules, #rules-title; #rules-search (type=search), #rules-status (how many
// sections match, role=status), #rules-contents (a link per section), #rules-text with one
// section#rules-KEY per section (hidden when the search leaves it out; matches in <mark>);
// the section last opened by address has class "current".

import { $, $$, el, gameTitle } from "./common.js";

const GAME = "now-boarding";
const SOURCE = `/static/rules-${GAME}.html`;
const PREFIX = "#rules";

let sections = [];          // the sections as the file has them: every search starts from these
let loading = null;
let show = () => {};        // app.js's showView, handed to wireRules

/** Fetch the text once (again after a failure) and draw it. */
function load() {
  loading ??= fetch(SOURCE, { credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) throw new Error(`the box answered ${response.status}`);
      return response.text();
    })
    .then((text) => {
      const parsed = new DOMParser().parseFromString(text, "text/html");
      sections = [...parsed.querySelectorAll("section[id^='rules-']")];
      drawContents();
      search();
    })
    .catch((error) => {
      loading = null;
      $("#rules-status").textContent = `Could not load the rules (${error.message}). Try again.`;
    });
  return loading;
}

const keyOf = (section) => section.id.slice("rules-".length);

function drawContents() {
  $("#rules-contents").replaceChildren(el("ol", {}, ...sections.map((section) =>
    el("li", { "data-rule": keyOf(section) },
      el("a", { href: `${PREFIX}/${keyOf(section)}` }, section.querySelector("h3").textContent)))));
}

function words(query) {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Redraw every section from the file's copy: kept when it holds every word of the search,
 * with each word marked; all of them, unmarked, when the search is empty. */
function search() {
  const wanted = words($("#rules-search").value);
  const pattern = wanted.length
    ? new RegExp(wanted.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "gi")
    : null;
  let kept = 0;
  const drawn = sections.map((original) => {
    const section = document.importNode(original, true);
    const heading = section.querySelector("h3");
    heading.id = `${section.id}-title`;
    heading.tabIndex = -1;
    section.setAttribute("aria-labelledby", heading.id);
    const text = section.textContent.toLowerCase();
    const matches = wanted.every((word) => text.includes(word));
    section.hidden = !matches;
    if (matches) kept += 1;
    if (matches && pattern) mark(section, pattern);
    const entry = $(`#rules-contents li[data-rule="${keyOf(section)}"]`);
    if (entry) entry.hidden = !matches;
    return section;
  });
  $("#rules-text").replaceChildren(...drawn);
  const shown = $("#rules-search").value.trim();
  $("#rules-status").textContent = !wanted.length ? ""
    : kept ? `${kept} of ${sections.length} sections mention “${shown}”.`
      : `No section mentions “${shown}”.`;
}

/** Wrap each match of ``pattern`` in the section's text in a <mark>. */
function mark(section, pattern) {
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    pattern.lastIndex = 0;
    if (pattern.test(node.data)) found.push(node);
  }
  for (const node of found) {
    const parts = [];
    let last = 0;
    for (const match of node.data.matchAll(pattern)) {
      parts.push(node.data.slice(last, match.index), el("mark", {}, match[0]));
      last = match.index + match[0].length;
    }
    parts.push(node.data.slice(last));
    node.replaceWith(...parts.filter((part) => part !== ""));
  }
}

/** The view was opened (its tab, or an address): draw the text if it is not there yet. */
export function openRules() {
  return load();
}

/** Open the view at the section ``key`` (the top for none or an unknown one). */
async function openSection(key) {
  show("rules");
  await load();
  const target = key ? $(`#rules-${CSS.escape(key)}`) : null;
  for (const section of $$("#rules-text section.current")) section.classList.remove("current");
  if (!target) {
    window.scrollTo(0, 0);
    return;
  }
  if (target.hidden) {                // a search left it out: show everything again
    $("#rules-search").value = "";
    search();
    return openSection(key);
  }
  target.classList.add("current");
  // Where the page's header stays at the top, the section starts below it.
  const top = $("header.top");
  const header = top && getComputedStyle(top).position === "sticky"
    ? top.getBoundingClientRect().height : 0;
  window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY - header - 8);
  target.querySelector("h3").focus({ preventScroll: true });
}

/** The section the address names: "weather" for #rules/weather, "" for #rules, null else. */
function addressed(hash) {
  if (hash !== PREFIX && !hash.startsWith(`${PREFIX}/`)) return null;
  return decodeURIComponent(hash.slice(PREFIX.length + 1));
}

/** Wire the search, links to #rules/KEY anywhere on the page, and the address; ``showView``
 * is app.js's (it opens a tab). */
export function wireRules(showView) {
  show = showView;
  const title = () => {   // the game's title is the box's fact (GET /api/games)
    const known = gameTitle(GAME);
    if (known !== GAME) $("#rules-title").textContent = `Rules of ${known}`;
  };
  document.addEventListener("companion:games", title);
  title();
  $("#rules-search").addEventListener("input", search);
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.(`a[href^="${PREFIX}"]`);
    const key = link ? addressed(link.getAttribute("href")) : null;
    if (key === null || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    // A history entry of its own: Back returns to the view the link was tapped in.
    const url = new URL(window.location.href);
    url.hash = link.getAttribute("href");
    if (url.href !== window.location.href) history.pushState(null, "", url);
    openSection(key);
  });
  window.addEventListener("hashchange", () => {
    const key = addressed(window.location.hash);
    if (key !== null) openSection(key);
  });
  window.addEventListener("popstate", () => {
    const key = addressed(window.location.hash);
    if (key !== null) {
      openSection(key);
      return;
    }
    const view = new URLSearchParams(window.location.search).get("view");
    showView($(`#view-${view}`) ? view : "box");
  });
  const key = addressed(window.location.hash);
  if (key !== null) openSection(key);
}
