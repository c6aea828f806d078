// Parse a pasted reply and show the verdict: /api/v1/parse.

import { jsonBody, postJson } from "../api.js";
import { byId, el, fillSelect, show } from "../dom.js";
import { errorView } from "../errors.js";
import { requireTools } from "../tools-state.js";

function problems(validation) {
  if (!validation) return [];
  const found = [];
  if (validation.unknown_tool) found.push("unknown tool");
  for (const name of validation.missing_required ?? []) found.push(`missing required '${name}'`);
  for (const name of validation.unknown_args ?? []) found.push(`unknown argument '${name}'`);
  for (const kind of ["type_errors", "enum_errors", "constraint_errors"]) {
    for (const problem of validation[kind] ?? []) found.push(typeof problem === "string" ? problem : JSON.stringify(problem));
  }
  return found;
}

function verdict(answer) {
  if (answer.ok) return ["accepted", "verdict verdict-ok", "every call parsed, named a real tool and passed validation"];
  if (answer.no_call_declared) return ["no call", "verdict verdict-none", "the reply declares that no tool fits"];
  return ["rejected", "verdict verdict-bad", answer.note || "a call was rejected, invented a tool or failed validation"];
}

// The API's accepted (the syntax was read, the tool exists) and valid (the arguments pass the schema), in words.
function readAs(call) {
  if (!call.accepted) return "not accepted";
  return call.valid === false ? "syntax read, arguments invalid" : "a valid call";
}

function resolvedNote(call) {
  return call.resolved_name && call.resolved_name !== call.name ? el("span", { class: "muted" }, ` resolved to ${call.resolved_name}`) : null;
}

function callsTable(calls) {
  return el("div", { class: "scroll" }, el(
    "table",
    {},
    el("thead", {}, el("tr", {}, ["call", "arguments", "read as", "problems"].map((name) => el("th", { scope: "col" }, name)))),
    el(
      "tbody",
      {},
      calls.map((call) =>
        el(
          "tr",
          { class: call.accepted && call.valid !== false ? "" : "rejected" },
          el("th", { scope: "row" }, el("code", {}, call.name), resolvedNote(call)),
          el("td", {}, el("code", {}, JSON.stringify(call.arguments))),
          el("td", {}, readAs(call)),
          el("td", {}, [...new Set([...problems(call.validation), call.reason].filter(Boolean))].join("; ")),
        ),
      ),
    ),
  ));
}

export async function startParse(registry) {
  const result = byId("parse-result");
  byId("parse-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const tools = requireTools(result);
    if (tools === null) return;
    const fields = { text: byId("parse-text").value, protocol: byId("parse-protocol").value, rule: byId("parse-rule").value };
    try {
      const answer = await postJson("/api/v1/parse", jsonBody(fields, tools));
      const [word, style, why] = verdict(answer);
      const calls = [...(answer.calls ?? []), ...(answer.rejected ?? [])];
      show(
        result,
        el("p", {}, el("strong", { class: style }, word), `: ${why}`),
        el("p", { class: "muted" }, `parsed strictly: ${answer.parsed_strict ? "yes" : "no"} · format compliant: ${answer.format_compliant ? "yes" : "no"} · syntax: ${answer.matched_syntax ?? "none"}`),
        (answer.hallucinated ?? []).length ? el("p", { class: "warning" }, `invented tools: ${answer.hallucinated.join(", ")}`) : null,
        calls.length ? callsTable(calls) : null,
      );
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
  const { protocols } = await registry;
  fillSelect(byId("parse-protocol"), protocols.map((protocol) => [protocol.id, `${protocol.name} (${protocol.id})`]), "xml_call");
  byId("parse-text").value = '<function_calls>\n  <invoke name="get_forecast">\n    <parameter name="city">Denver</parameter>\n  </invoke>\n</function_calls>';
}
