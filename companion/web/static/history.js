// The History tab: every game the box kept, with its chart, downloads and BG Stats link.
// Stable hooks: see the header of app.js ("History").

import { $, el, getJson } from "./common.js";

// -- history -------------------------------------------------------------------------------

export async function loadHistory() {
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
  if (typeof result.result === "string") return result.result;   // now-boarding, scored from its count
  if (Array.isArray(result.winners)) return result.winners.length ? `winners: ${result.winners.join(", ")}` : "no winner";
  return JSON.stringify(result).slice(0, 40);
}

function historyGame(game) {
  const started = String(game.started ?? "").replace("T", " ").slice(0, 16);
  const links = el("p", { class: "downloads" },
    ...Object.entries(game.downloads).map(([kind, href]) =>
      el("a", { class: "download", href, download: "", "data-kind": kind }, `Download ${kind.toUpperCase()}`)),
  );
  const play = game.bgstats ? bgstatsBlock(game) : null;
  // The headings in words and the columns a phone shows (the box says which: the CSV download
  // keeps every column under its stable name).
  const headings = game.table.headings ?? game.table.columns;
  const shown = game.table.shown ?? game.table.columns.map((_, index) => index);
  // A wide table scrolls sideways: focusable (and named) so a keyboard can scroll it too.
  const table = el("div", { class: "table-scroll", tabindex: "0", role: "region",
    "aria-label": `${game.title}: the table` }, el("table", {},
    el("caption", {}, game.options?.entered === "score" ? "As scored" : "Per round"),
    el("thead", {}, el("tr", {}, ...shown.map((i) => el("th", { scope: "col" }, headings[i])))),
    el("tbody", {}, ...game.table.rows.map((row) => el("tr", {}, ...shown.map((i) => el("td", {}, row[i] ?? "")))))));
  return el("details", { class: "history-game", "data-game-id": game.id },
    el("summary", {}, `#${game.id} ${game.title} — ${started} — ${resultText(game.result)}`),
    complaintSplit(game),
    el("figure", { class: "chart-figure" }, el("figcaption", {}, game.chart.title), chartSvg(game.chart)),
    links, play, table);
}

/** The complaints of a cooperative game by where they came from: the record of a played
 * game (complaints_by_source), or the breakdown of one scored from its count; null for a
 * game that keeps neither. */
function complaintSplit(game) {
  const record = game.record?.complaints_by_source;
  const scored = game.result?.breakdown;
  const split = record ? { anger: record.anger, vip: record.vip, exit: record.exit }
    : scored && "unserved-vips" in scored
      ? { anger: scored.complaints, vip: scored["unserved-vips"], exit: scored.undelivered }
      : null;
  if (!split) return null;
  const total = split.anger + split.vip + split.exit;
  return el("p", { class: "complaint-split", "data-anger": split.anger, "data-vip": split.vip,
    "data-exit": split.exit },
  el("strong", {}, `Complaints: ${total}`),
  ` — waiting passengers ${split.anger}, unserved VIPs ${split.vip}, `
  + `undelivered at the end ${split.exit}.`);
}

// -- BG Stats ------------------------------------------------------------------------------

const NOT_OPENED_MS = 1500;
let blocks = 0;

/** The BG Stats link of a kept game (a.bgstats), and for a phone without the app: a note
 * that says so once the link has not opened, the link as text and as a QR code (drawn by the
 * box: /api/history/ID/bgstats.svg) for a phone that has the app. */
export function bgstatsBlock(game) {
  const note = el("p", { class: "bgstats-note", role: "status" });
  // A button and a panel, not a <details>: a history entry is a <details> already, and its
  // summary stays its only one.
  blocks += 1;   // the same game may show twice (the Score tab, History): ids stay unique
  const panelId = `bgstats-other-${blocks}`;
  const other = el("div", { class: "bgstats-other", id: panelId, hidden: true },
    el("p", {}, "Scan this code with a phone that has BG Stats, or copy the link:"),
    el("img", { class: "bgstats-qr", src: `/api/history/${game.id}/bgstats.svg`, width: 220, height: 220,
      alt: "QR code of the BG Stats link" }),
    el("p", { class: "bgstats-text" }, el("code", {}, game.bgstats)));
  const toggle = el("button", { type: "button", class: "bgstats-toggle", "aria-expanded": "false",
    "aria-controls": panelId }, "No BG Stats on this phone?");
  const show = (open) => {
    other.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => show(other.hidden));
  const link = el("a", { class: "bgstats", href: game.bgstats, "data-game-id": game.id }, "Log this play in BG Stats");
  link.addEventListener("click", () => {
    // An app that opens hides this page; if it is still in view a moment later, no app took
    // the link (BG Stats is not installed here): say so and open the other ways.
    let left = false;
    const leave = () => { left = true; };
    window.addEventListener("blur", leave, { once: true });
    document.addEventListener("visibilitychange", leave, { once: true });
    setTimeout(() => {
      window.removeEventListener("blur", leave);
      document.removeEventListener("visibilitychange", leave);
      if (left || document.visibilityState !== "visible") return;
      note.textContent = "BG Stats did not open: it does not seem to be installed on this phone. "
        + "Use the QR code or the link below on a phone that has it.";
      show(true);
    }, NOT_OPENED_MS);
  });
  return el("div", { class: "bgstats-block" }, link, note, toggle, other);
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
      // As many entries a row as fit the width; the next row below.
      let x = left + 4;
      let row = top + 4;
      for (const series of panel.series) {
        const width = series.name.length * 7.5 + 30;
        if (x > left + 4 && x + width - 16 > right) {
          x = left + 4;
          row += 16;
        }
        root.append(svg("rect", { x, y: row, width: 10, height: 10, fill: series.colour }),
          svg("text", { x: x + 14, y: row + 9, class: "legend" }, series.name));
        x += width;
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

