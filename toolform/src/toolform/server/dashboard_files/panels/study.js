// The study at a glance: every study format's accuracy against its schema
// tokens (the front of formats no other beats on both drawn, the loaded tools'
// cost marked), the core formats' table, the headline facts and the model zoo.
// Every figure is the evidence's, read through the API, shown with its source label.

import { getJson, jsonBody, postJson } from "../api.js";
import { byId, el, percent, show, svg } from "../dom.js";
import { errorView } from "../errors.js";
import { onTools } from "../tools-state.js";

// Eleven families told apart by colour and by shape, so neither alone carries the difference.
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#ff7f0e", "#393b79"];
const SHAPES = ["circle", "square", "triangle", "diamond"];
const ACCURACY = "call_exact";

// A marker of one shape centred on (x, y), radius r.
function marker(shape, x, y, r, attributes) {
  if (shape === "circle") return svg("circle", { cx: x, cy: y, r, ...attributes });
  if (shape === "square") return svg("rect", { x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, ...attributes });
  const points =
    shape === "triangle"
      ? [[x, y - r * 1.1], [x + r, y + r * 0.75], [x - r, y + r * 0.75]]
      : [[x, y - r * 1.2], [x + r, y], [x, y + r * 1.2], [x - r, y]];
  return svg("polygon", { points: points.map((p) => p.join(",")).join(" "), ...attributes });
}

// The formats no other beats on both axes: fewer or as many tokens and a higher accuracy.
export function front(points) {
  const sorted = [...points].sort((a, b) => a.tokens - b.tokens || b.accuracy - a.accuracy);
  const kept = [];
  let best = -Infinity;
  for (const point of sorted) {
    if (point.accuracy > best) {
      kept.push(point);
      best = point.accuracy;
    }
  }
  return kept;
}

function tokenTicks(low, high) {
  const ticks = [];
  for (let power = 1; power <= 6; power += 1) {
    for (const step of [1, 2, 5]) {
      const value = step * 10 ** power;
      if (value >= low && value <= high) ticks.push(value);
    }
  }
  return ticks;
}

function tokensText(value) {
  return value >= 1000 ? `${value / 1000}k` : String(value);
}

function familyStyle(families) {
  const style = new Map();
  families.forEach((family, index) => style.set(family, { colour: PALETTE[index % PALETTE.length], shape: SHAPES[index % SHAPES.length] }));
  return style;
}

function scatter(points, style, yours, width) {
  const narrow = width < 600;
  const height = narrow ? Math.round(width * 1.05) : 460;
  const margin = { left: 48, right: 14, top: 14, bottom: 46 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const tokens = points.map((p) => p.tokens).concat(yours ? [yours.low, yours.high] : []);
  const lowX = Math.log10(Math.min(...tokens) * 0.8);
  const highX = Math.log10(Math.max(...tokens) * 1.25);
  const topY = Math.ceil(Math.max(...points.map((p) => p.accuracy)) / 10) * 10;
  const x = (value) => margin.left + ((Math.log10(value) - lowX) / (highX - lowX)) * plotW;
  const y = (value) => margin.top + plotH - (value / topY) * plotH;
  const edge = front(points);
  const onFront = new Set(edge.map((p) => p.id));
  const radius = narrow ? 4.5 : 5.5;
  const yTicks = [];
  for (let value = 0; value <= topY; value += 10) yTicks.push(value);
  const sources = [...new Set(points.map((p) => p.source))].join(", ");
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart scatter", role: "img", "aria-labelledby": "study-chart-title study-chart-desc" },
    svg("title", { id: "study-chart-title" }, "Each study format's accuracy against its schema tokens"),
    svg("desc", { id: "study-chart-desc" }, `${points.length} formats; accuracy is exact calls in percent, tokens the mean schema tokens per prompt, source ${sources}. The front joins the formats no other beats on both.`),
    svg("g", { class: "axis" },
      yTicks.map((tick) => svg("g", {},
        svg("line", { x1: margin.left, x2: margin.left + plotW, y1: y(tick), y2: y(tick), class: "grid" }),
        svg("text", { x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end" }, `${tick}%`))),
      tokenTicks(10 ** lowX, 10 ** highX).map((tick) => svg("g", {},
        svg("line", { x1: x(tick), x2: x(tick), y1: margin.top, y2: margin.top + plotH, class: "grid" }),
        svg("text", { x: x(tick), y: margin.top + plotH + 16, "text-anchor": "middle" }, tokensText(tick)))),
      svg("text", { x: margin.left + plotW / 2, y: height - 6, "text-anchor": "middle", class: "axis-title" }, "schema tokens per prompt (mean, log scale)"),
      svg("text", { x: 12, y: margin.top + plotH / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${margin.top + plotH / 2})`, class: "axis-title" }, "exact calls (%)"),
    ),
    yours
      ? svg("g", { class: "yours" },
          svg("rect", { x: x(yours.low), y: margin.top, width: Math.max(2, x(yours.high) - x(yours.low)), height: plotH, class: "yours-band" },
            svg("title", {}, `your tools: ${yours.low} to ${yours.high} tokens (estimated) in the ${yours.count} core formats`)),
          svg("text", { x: x(yours.low) + 4, y: margin.top + 12, class: "yours-label" }, "your tools"))
      : null,
    svg("polyline", { points: edge.map((p) => `${x(p.tokens)},${y(p.accuracy)}`).join(" "), class: "front" }),
    points.map((p) => {
      const { colour, shape } = style.get(p.family);
      return svg("g", { class: onFront.has(p.id) ? "format on-front" : "format", "data-format": p.id, "data-family": p.family },
        marker(shape, x(p.tokens), y(p.accuracy), p.core ? radius * 1.35 : radius, { fill: colour, class: p.core ? "mark core" : "mark" }),
        svg("title", {}, `${p.id} (${p.family}${p.core ? ", core" : ""}): ${percent(p.accuracy)} exact calls, ${p.tokens} schema tokens (mean); ${p.source}`),
      );
    }),
    narrow ? null : coreLabels(points.filter((p) => p.core), x, y, margin.left + plotW),
  );
}

// The core formats' ids beside their points, each moved down until it overlaps no label placed before it.
function coreLabels(core, x, y, right) {
  const placed = [];
  const labels = [];
  for (const p of [...core].sort((a, b) => b.accuracy - a.accuracy)) {
    const width = p.id.length * 6.2;
    const anchorEnd = x(p.tokens) + 8 + width > right;
    const left = anchorEnd ? x(p.tokens) - 8 - width : x(p.tokens) + 8;
    let top = y(p.accuracy) + 4;
    while (placed.some((box) => Math.abs(box.top - top) < 12 && left < box.left + box.width && box.left < left + width)) top += 12;
    placed.push({ left, top, width });
    labels.push(svg("text", { x: anchorEnd ? x(p.tokens) - 8 : x(p.tokens) + 8, y: top, "text-anchor": anchorEnd ? "end" : "start", class: "point-label", "data-format": p.id }, p.id));
  }
  return svg("g", { class: "core-labels" }, labels);
}

function legend(style, hasYours) {
  return el("ul", { class: "study-legend", "aria-label": "Legend" },
    [...style].map(([family, { colour, shape }]) =>
      el("li", { "data-family": family },
        svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" }, marker(shape, 7, 7, 5, { fill: colour })),
        family)),
    el("li", {}, svg("svg", { width: 22, height: 14, viewBox: "0 0 22 14", "aria-hidden": "true" }, svg("line", { x1: 1, x2: 21, y1: 7, y2: 7, class: "front" })), "the front"),
    el("li", {}, svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" }, svg("circle", { cx: 7, cy: 7, r: 6, class: "core-key" })), "core format (larger)"),
    hasYours ? el("li", {}, el("span", { class: "swatch swatch-yours" }), "your tools") : null,
  );
}

function coreTable(envelope) {
  const rows = envelope.data.rows;
  const conditions = Object.entries(envelope.conditions ?? {}).map(([name, value]) => `${name} ${value}`).join(", ");
  const contrast = (pair) => (pair && pair.value !== undefined ? `${pair.value > 0 ? "+" : ""}${pair.value} points${pair.interval ? ` [${pair.interval[0]}, ${pair.interval[1]}]` : ""}` : "");
  return el("div", {},
    el("p", { class: "table-note" }, "Exact calls of the eight core formats under the three grading rules, in percent; the contrast with JSON Schema in points with its interval. Source ", el("span", { class: "badge" }, envelope.source.join(", ")), conditions ? ` (${conditions}).` : "."),
    el("div", { class: "scroll" },
    el("table", { class: "core-table" },
      el("thead", {}, el("tr", {}, ["format", "protocol", "main", "symmetric", "as written", "main, against JSON Schema", "real tools"].map((name) => el("th", { scope: "col" }, name)))),
      el("tbody", {}, rows.map((row) => el("tr", { "data-format": row.format_id },
        el("th", { scope: "row" }, el("code", {}, row.format_id)),
        el("td", {}, el("code", {}, row.protocol_id)),
        el("td", { class: "number" }, percent(row.main)),
        el("td", { class: "number" }, percent(row.symmetric)),
        el("td", { class: "number" }, percent(row.as_written)),
        el("td", { class: "number contrast" }, contrast(row.minus_json_main)),
        el("td", { class: "number" }, percent(row.real_accuracy))))))));
}

function factValue(fact) {
  const interval = Array.isArray(fact.interval) ? ` [${fact.interval[0]}, ${fact.interval[1]}]` : "";
  if (fact.unit === "%") return `${fact.value}%${interval}`;
  if (fact.unit === "count" || !fact.unit) return `${fact.value}${interval}`;
  return `${fact.value} ${fact.unit}${interval}`;
}

function factsList(facts) {
  return el("details", { class: "facts" },
    el("summary", {}, `The headline facts (${facts.length}), each with its source`),
    el("ul", { class: "evidence facts-list" }, facts.map((fact) =>
      el("li", { "data-fact": fact.id }, el("strong", {}, factValue(fact)), ` ${fact.text} `, el("span", { class: "source" }, fact.source)))));
}

function zooTable(envelope) {
  const models = envelope.data.models;
  const studied = models.filter((model) => model.in_study).length;
  return el("details", { class: "zoo" },
    el("summary", {}, `The model zoo: ${models.length} models, ${studied} in the study `, el("span", { class: "badge" }, envelope.source.join(", "))),
    el("div", { class: "scroll" },
      el("table", {},
        el("thead", {}, el("tr", {}, ["model", "family", "size (B parameters)", "kind", "open weights", "context (tokens)", "in the study"].map((name) => el("th", { scope: "col" }, name)))),
        el("tbody", {}, models.map((model) => el("tr", { "data-model": model.id },
          el("th", { scope: "row" }, el("code", {}, model.id)),
          el("td", {}, model.family),
          el("td", { class: "number" }, model.params_b === null ? "not published" : String(model.params_b)),
          el("td", {}, model.kind),
          el("td", {}, model.open ? "yes" : "no"),
          el("td", { class: "number" }, model.max_model_len === null ? "" : model.max_model_len.toLocaleString("en")),
          el("td", {}, model.in_study ? "yes" : "no")))))));
}

export function studyPoints(formats) {
  return formats
    .filter((format) => format.in_study && format.measured && typeof format.measured[ACCURACY] === "number")
    .map((format) => ({
      id: format.id,
      family: format.family,
      core: format.core === true,
      tokens: format.measured.mean_schema_tokens,
      accuracy: format.measured[ACCURACY],
      source: format.measured.as_of ? `${format.measured.source} (as of ${format.measured.as_of})` : format.measured.source,
    }));
}

export function startStudy() {
  const result = byId("study-result");
  const chartBox = byId("study-chart");
  let points = null;
  let yours = null;
  let drawnWidth = 0;

  function draw() {
    if (points === null) return;
    const width = Math.max(300, Math.floor(chartBox.clientWidth));
    drawnWidth = width;
    const families = [...new Set(points.map((p) => p.family))].sort();
    const style = familyStyle(families);
    const edge = front(points);
    show(chartBox,
      legend(style, yours !== null),
      scatter(points, style, yours, width),
      el("p", { class: "muted source-line" }, "Source: ", el("span", { class: "badge" }, [...new Set(points.map((p) => p.source))].join(", ")),
        yours ? ` · your tools: ${yours.low} to ${yours.high} tokens (estimated by this server) in the ${yours.count} core formats` : " · load tools to mark their cost"),
      el("p", { class: "front-list" }, el("strong", {}, "The front: "),
        edge.flatMap((p, index) => [index ? ", " : "", el("code", {}, p.id), ` (${p.tokens} tokens, ${percent(p.accuracy)})`])));
  }

  const loading = Promise.all([
    getJson("/api/v1/formats?in_study=true"),
    getJson("/api/v1/evidence/core_main"),
    getJson("/api/v1/facts"),
    getJson("/api/v1/evidence/zoo"),
  ]).then(([formats, core, facts, zoo]) => {
    points = studyPoints(formats.formats);
    draw();
    show(result, el("h3", {}, "The core formats"), coreTable(core), factsList(facts.facts), zooTable(zoo));
  }, (failure) => {
    show(result, errorView(failure));
  });

  // The loaded tools' cost in the core formats, as a band on the chart.
  onTools(async (loaded) => {
    try {
      const answer = await postJson("/api/v1/render/compare", jsonBody({ formats: (await getJson("/api/v1/formats?core=true")).formats.map((f) => f.id) }, loaded.toolsJson));
      const counts = answer.rows.map((row) => row.tokens_estimate).filter((value) => typeof value === "number");
      yours = counts.length ? { low: Math.min(...counts), high: Math.max(...counts), count: counts.length } : null;
    } catch {
      yours = null;
    }
    await loading;
    draw();
  });
  window.addEventListener("resize", () => {
    if (points !== null && Math.abs(Math.floor(chartBox.clientWidth) - drawnWidth) > 8) draw();
  });
  return loading;
}
