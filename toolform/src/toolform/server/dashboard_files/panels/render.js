// Render the loaded tools in one format and protocol: /api/v1/render.

import { jsonBody, postJson } from "../api.js";
import { byId, el, fillSelect, show } from "../dom.js";
import { errorView } from "../errors.js";
import { requireTools } from "../tools-state.js";

export async function startRender(registry) {
  const result = byId("render-result");
  byId("render-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const tools = requireTools(result);
    if (tools === null) return;
    const request = byId("render-request").value.trim();
    const fields = { format: byId("render-format").value, protocol: byId("render-protocol").value || null };
    if (request) fields.request = request;
    try {
      const answer = await postJson("/api/v1/render", jsonBody(fields, tools));
      show(
        result,
        el("p", {}, `${answer.format_id} with ${answer.protocol_id}: ${answer.tokens_estimate} tokens (estimated), ${answer.chars} characters.`),
        (answer.warnings ?? []).length ? el("ul", { class: "warnings" }, answer.warnings.map((text) => el("li", {}, text))) : null,
        el("h3", {}, "System prompt"),
        el("pre", { class: "prompt", tabindex: "0", "aria-label": "The rendered system prompt" }, answer.system_prompt),
      );
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
  const { formats, protocols } = await registry;
  const renderable = formats.filter((format) => !format.two_stage);
  fillSelect(byId("render-format"), renderable.map((format) => [format.id, `${format.name} (${format.id})`]), "xml_schema");
  const protocolSelect = byId("render-protocol");
  protocolSelect.append(...protocols.map((protocol) => el("option", { value: protocol.id }, `${protocol.name} (${protocol.id})`)));
}
