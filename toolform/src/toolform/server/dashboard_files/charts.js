// Charts drawn as inline SVG, with no library: tokens beside the study's
// accuracy, and measured accuracies with their intervals.

import { el, percent, svg } from "./dom.js";

// Drawn at the width it is shown at (never below 300 px), so that its text stays readable on a phone.
function layout(width) {
  const WIDTH = Math.max(300, Math.round(width || 760));
  const LABEL = Math.min(230, Math.round(WIDTH * 0.34));
  const VALUE = WIDTH < 500 ? 64 : 110;
  return { WIDTH, LABEL, VALUE, PLOT: WIDTH - LABEL - VALUE };
}

function axis({ LABEL }, y, height, ticks, scale, unit) {
  return svg(
    "g",
    { class: "axis" },
    ticks.map((tick) =>
      svg(
        "g",
        {},
        svg("line", { x1: LABEL + scale(tick), x2: LABEL + scale(tick), y1: y, y2: y + height, class: "grid" }),
        svg("text", { x: LABEL + scale(tick), y: y + height + 14, "text-anchor": "middle" }, `${tick}${unit}`),
      ),
    ),
  );
}

// One row per format: a bar of its tokens on these tools, and under it a bar
// of the study's accuracy for the format, labelled with the accuracy's source.
export function tokensBesideAccuracy(rows, width) {
  const { WIDTH, LABEL, PLOT } = layout(width);
  const rowHeight = 34;
  const top = 8;
  const height = top + rows.length * rowHeight + 24;
  const maxTokens = Math.max(1, ...rows.map((row) => row.tokens_estimate ?? 0));
  const sources = [...new Set(rows.map((row) => row.study_source).filter(Boolean))];
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${WIDTH} ${height}`,
      width: WIDTH,
      class: "chart",
      role: "img",
      "aria-labelledby": "compare-chart-title compare-chart-desc",
    },
    svg("title", { id: "compare-chart-title" }, "Tokens of the loaded tools in each format, beside the study's accuracy"),
    svg("desc", { id: "compare-chart-desc" }, `Accuracy source: ${sources.join(", ") || "none"}. The table below holds the same figures.`),
    rows.map((row, index) => {
      const y = top + index * rowHeight;
      const tokens = row.tokens_estimate ?? 0;
      const accuracy = row.study_accuracy;
      return svg(
        "g",
        { class: "chart-row", "data-format": row.format_id },
        svg("text", { x: LABEL - 8, y: y + 15, "text-anchor": "end", class: "label" }, row.format_id),
        svg("rect", { x: LABEL, y: y + 2, width: Math.max(1, (tokens / maxTokens) * PLOT), height: 12, class: "bar-tokens" },
          svg("title", {}, `${row.format_id}: ${tokens} tokens (estimated)`)),
        svg("text", { x: LABEL + PLOT + 6, y: y + 12, class: "value" }, `${tokens} tok`),
        accuracy === null || accuracy === undefined
          ? svg("text", { x: LABEL, y: y + 27, class: "value muted" }, "the study has no number")
          : svg("rect", { x: LABEL, y: y + 16, width: Math.max(1, (accuracy / 100) * PLOT), height: 12, class: "bar-accuracy" },
              svg("title", {}, `${row.format_id}: ${percent(accuracy)} (${row.study_source})`)),
        svg("text", { x: LABEL + PLOT + 6, y: y + 26, class: "value" }, accuracy === null || accuracy === undefined ? "" : percent(accuracy)),
      );
    }),
  );
  const legend = el(
    "p",
    { class: "legend" },
    el("span", { class: "swatch swatch-tokens" }), " tokens of your tools (estimated) ",
    el("span", { class: "swatch swatch-accuracy" }), ` study accuracy, source ${sources.join(", ") || "none"}`,
  );
  return [legend, chart];
}

// One row per measured format: the accuracy as a dot, its interval as a line.
export function scoresWithIntervals(scores, winner, width) {
  const box = layout(width);
  const { WIDTH, LABEL, PLOT } = box;
  const rowHeight = 26;
  const top = 8;
  const height = top + scores.length * rowHeight + 24;
  const scale = (value) => (Math.min(100, Math.max(0, value)) / 100) * PLOT;
  return svg(
    "svg",
    { viewBox: `0 0 ${WIDTH} ${height}`, width: WIDTH, class: "chart", role: "img", "aria-labelledby": "measure-chart-title" },
    svg("title", { id: "measure-chart-title" }, "Measured accuracy of each format, with its interval"),
    axis(box, top, scores.length * rowHeight, [0, 25, 50, 75, 100], scale, "%"),
    scores.map((score, index) => {
      const y = top + index * rowHeight + rowHeight / 2;
      const [low, high] = Array.isArray(score.interval) ? score.interval : [score.accuracy, score.accuracy];
      const isWinner = score.format_id === winner;
      return svg(
        "g",
        { class: isWinner ? "chart-row winner" : "chart-row", "data-format": score.format_id },
        svg("text", { x: LABEL - 8, y: y + 4, "text-anchor": "end", class: "label" }, score.format_id),
        svg("line", { x1: LABEL + scale(low), x2: LABEL + scale(high), y1: y, y2: y, class: "interval" }),
        svg("line", { x1: LABEL + scale(low), x2: LABEL + scale(low), y1: y - 5, y2: y + 5, class: "interval" }),
        svg("line", { x1: LABEL + scale(high), x2: LABEL + scale(high), y1: y - 5, y2: y + 5, class: "interval" }),
        svg("circle", { cx: LABEL + scale(score.accuracy), cy: y, r: 5, class: "point" },
          svg("title", {}, `${score.format_id}: ${percent(score.accuracy)}, interval [${percent(low)}, ${percent(high)}]`)),
        svg("text", { x: LABEL + PLOT + 6, y: y + 4, class: "value" }, percent(score.accuracy)),
      );
    }),
  );
}
