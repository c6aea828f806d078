// The formats compared: /api/v1/render/compare, drawn as tokens beside the
// study's accuracy, with the figures in a table too.

import { jsonBody, postJson } from "../api.js";
import { tokensBesideAccuracy } from "../charts.js";
import { byId, el, percent, show } from "../dom.js";
import { errorView } from "../errors.js";
import { requireTools } from "../tools-state.js";

function table(rows) {
  return el(
    "details",
    {},
    el("summary", {}, "The figures as a table"),
    el(
      "div",
      { class: "scroll" },
      el(
      "table",
      {},
      el("thead", {}, el("tr", {}, ["format", "family", "tokens (estimated)", "study accuracy", "source", "paper (core only)"].map((name) => el("th", { scope: "col" }, name)))),
      el(
        "tbody",
        {},
        rows.map((row) =>
          el(
            "tr",
            {},
            el("th", { scope: "row" }, el("code", {}, row.format_id)),
            el("td", {}, row.family),
            el("td", { class: "number" }, row.error ? row.error : String(row.tokens_estimate)),
            el("td", { class: "number" }, percent(row.study_accuracy)),
            el("td", {}, row.study_source ?? ""),
            el("td", { class: "number" }, row.paper_accuracy === null || row.paper_accuracy === undefined ? "" : percent(row.paper_accuracy)),
          ),
        ),
      ),
    ),
    ),
  );
}

export function startCompare(registry) {
  const result = byId("compare-result");
  byId("compare-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const tools = requireTools(result);
    if (tools === null) return;
    const core = byId("compare-core").checked;
    const formats = core ? (await registry).formats.filter((format) => format.core).map((format) => format.id) : null;
    try {
      const answer = await postJson("/api/v1/render/compare", jsonBody({ formats }, tools));
      show(
        result,
        el("p", { class: "muted" }, "Never rank the paper's column against the study's: they are measured on different cells."),
        tokensBesideAccuracy(answer.rows, byId("compare-form").clientWidth),
        table(answer.rows),
      );
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
}
