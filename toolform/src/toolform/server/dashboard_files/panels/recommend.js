// A recommendation with the evidence it rests on: /api/v1/recommend.

import { jsonBody, postJson } from "../api.js";
import { byId, el, interval, percent, show } from "../dom.js";
import { errorView } from "../errors.js";
import { loadedTools } from "../tools-state.js";

function evidenceRows(rows) {
  return el(
    "ul",
    { class: "evidence" },
    rows.map((row) =>
      el(
        "li",
        {},
        `${row.label}: ${row.value}${row.unit ?? ""}`,
        row.interval ? ` ${interval(row.interval)}` : "",
        " ",
        el("span", { class: "source" }, row.source),
        row.note ? el("span", { class: "muted" }, ` (${row.note})`) : null,
      ),
    ),
  );
}

function alternatives(rows) {
  return el("div", { class: "scroll" }, el(
    "table",
    {},
    el("thead", {}, el("tr", {}, ["format", "protocol", "expected accuracy", "schema tokens"].map((name) => el("th", { scope: "col" }, name)))),
    el(
      "tbody",
      {},
      rows.map((row) =>
        el(
          "tr",
          {},
          el("th", { scope: "row" }, `${row.format_name} (${row.format_id})`),
          el("td", {}, row.protocol_id),
          el("td", { class: "number" }, percent(row.expected_accuracy)),
          el("td", { class: "number" }, String(row.schema_tokens)),
        ),
      ),
    ),
  ));
}

function situationText(situation) {
  if (!situation) return "";
  const model = situation.model ?? "any model";
  const tools = situation.n_tools === null || situation.n_tools === undefined ? "" : ` at ${situation.n_tools} tools`;
  const tier = situation.tier === null || situation.tier === undefined ? "" : `, tier ${situation.tier}`;
  return `For ${model}${tools}${tier}, objective ${situation.objective}, rule ${situation.rule}.`;
}

function recommendationView(answer) {
  const catalogue = answer.catalogue;
  return el(
    "div",
    {},
    el("p", { class: "headline" }, el("strong", {}, `${answer.format_name} (${answer.format_id})`), ` answered with ${answer.protocol_name} (${answer.protocol_id})`),
    el("p", { class: "muted situation" }, situationText(answer.situation)),
    el(
      "p",
      {},
      `Expected accuracy ${percent(answer.expected_accuracy)} ${interval(answer.interval)} (${answer.interval_kind}), basis ${answer.basis}; `,
      `${answer.schema_tokens} schema tokens (${answer.tokens_source}).`,
    ),
    (answer.tied_with ?? []).length ? el("p", {}, `Tied with: ${answer.tied_with.join(", ")}.`) : null,
    el("p", {}, answer.explanation),
    el("h3", {}, "Evidence"),
    evidenceRows(answer.evidence ?? []),
    (answer.alternatives ?? []).length ? [el("h3", {}, "Alternatives"), alternatives(answer.alternatives)] : null,
    catalogue ? [el("h3", {}, `Catalogue: ${catalogue.strategy}`), el("p", {}, catalogue.reason), evidenceRows(catalogue.evidence ?? [])] : null,
    answer.guard ? [el("h3", {}, "Guard"), el("p", {}, answer.guard.reason ?? ""), evidenceRows(answer.guard.evidence ?? [])] : null,
    answer.measure_hint ? el("p", { class: "hint" }, answer.measure_hint) : null,
    (answer.warnings ?? []).length ? el("ul", { class: "warnings" }, answer.warnings.map((text) => el("li", {}, text))) : null,
  );
}

export function startRecommend() {
  const result = byId("recommend-result");
  byId("recommend-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const situation = {
      model: byId("recommend-model").value.trim() || null,
      objective: byId("recommend-objective").value,
      price: byId("recommend-price").value,
      rule: byId("recommend-rule").value,
      third_party_tools: byId("recommend-third-party").checked,
    };
    const loaded = loadedTools();
    const useTools = byId("recommend-use-tools").checked && loaded !== null;
    const tools = useTools ? loaded.toolsJson : null;
    // The situation is the loaded set's: its tool count and tier, not the form's defaults.
    if (useTools && loaded.summary) {
      situation.n_tools = loaded.summary.n_tools;
      situation.tier = loaded.summary.tier_estimate;
    }
    try {
      const answer = await postJson("/api/v1/recommend", jsonBody({ situation }, tools));
      show(result, recommendationView(answer));
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
}
