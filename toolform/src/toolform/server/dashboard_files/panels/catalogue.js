// Catalogue ranking: the loaded tools ranked by BM25 against a request,
// /api/v1/catalogue/retrieve.

import { jsonBody, postJson } from "../api.js";
import { byId, el, show } from "../dom.js";
import { errorView } from "../errors.js";
import { requireTools } from "../tools-state.js";

export function startCatalogue() {
  const result = byId("catalogue-result");
  byId("catalogue-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const tools = requireTools(result);
    if (tools === null) return;
    const fields = { query: byId("catalogue-query").value, k: Number(byId("catalogue-k").value) };
    try {
      const answer = await postJson("/api/v1/catalogue/retrieve", jsonBody(fields, tools));
      const top = Math.max(1e-9, ...answer.ranked.map(([, score]) => score));
      const selected = new Set(answer.selected ?? answer.ranked.slice(0, answer.k).map(([name]) => name));
      show(
        result,
        el("p", {}, `Ranked by ${answer.method}; the top ${selected.size} are kept.`),
        el(
          "ol",
          { class: "ranking" },
          answer.ranked.map(([name, score]) =>
            el(
              "li",
              { class: selected.has(name) ? "kept" : "dropped" },
              el("code", {}, name),
              el("meter", { min: "0", max: String(top), value: String(score), "aria-label": `${name} score` }),
              el("span", { class: "number" }, score.toFixed(3)),
              selected.has(name) ? el("span", { class: "badge" }, "kept") : null,
            ),
          ),
        ),
      );
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
}
