// The guard's findings, each highlighted in the text of the field it was found
// in: /api/v1/guard.

import { jsonBody, postJson } from "../api.js";
import { byId, el, show } from "../dom.js";
import { errorView } from "../errors.js";
import { loadedTools, requireTools } from "../tools-state.js";

// The text of a field the guard names ("description", "param:city",
// "param:address.city"), looked up in the loaded tools' IR; null when the IR
// does not hold it in a way this page knows.
function fieldText(tool, field) {
  if (!tool) return null;
  if (field === "description") return tool.description ?? null;
  const [kind, path] = field.split(/:(.*)/s);
  if (kind !== "param" || !path) return null;
  let params = tool.params ?? [];
  let found = null;
  for (const name of path.split(".")) {
    found = params.find((param) => param.name === name) ?? null;
    if (found === null) return null;
    params = found.children ?? found.type?.fields ?? found.type?.params ?? [];
  }
  return found?.description ?? null;
}

// The field's text with every finding's span marked, overlapping spans merged.
function highlighted(text, findings) {
  const spans = findings
    .filter((finding) => text.slice(finding.start, finding.end) === finding.text)
    .map((finding) => [finding.start, finding.end, finding])
    .sort((a, b) => a[0] - b[0]);
  if (spans.length === 0) return null;
  const parts = [];
  let at = 0;
  for (let index = 0; index < spans.length; ) {
    let [start, end] = spans[index];
    const covered = [];
    while (index < spans.length && spans[index][0] < Math.max(end, start + 1)) {
      end = Math.max(end, spans[index][1]);
      covered.push(spans[index][2]);
      index += 1;
    }
    if (start > at) parts.push(text.slice(at, start));
    const severity = covered.some((finding) => finding.severity === "high") ? "high" : covered[0].severity;
    parts.push(el("mark", { class: `severity-${severity}`, title: covered.map((finding) => `${finding.rule_id} ${finding.rule_name}`).join(", ") }, text.slice(Math.max(start, at), end)));
    at = Math.max(at, end);
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

function fieldView(toolName, field, findings) {
  const tool = (loadedTools()?.ir ?? []).find((candidate) => candidate.name === toolName);
  const text = fieldText(tool, field);
  const marked = text === null ? null : highlighted(text, findings);
  return el(
    "article",
    { class: "finding" },
    el("h3", {}, el("code", {}, toolName), " · ", field),
    el("p", { class: "field-text" }, marked ?? el("mark", { class: "severity-high" }, findings[0].text)),
    el(
      "ul",
      {},
      findings.map((finding) =>
        el("li", {}, el("strong", { class: `severity-${finding.severity}` }, `${finding.severity} ${finding.rule_id} ${finding.rule_name}`), `: ${finding.message}`),
      ),
    ),
  );
}

function evidenceList(evidence) {
  return el(
    "ul",
    { class: "evidence" },
    evidence.map((row) => el("li", {}, `${row.text}: ${row.value}${row.unit ?? "%"}`, " ", el("span", { class: "source" }, row.source))),
  );
}

export function startGuard() {
  const result = byId("guard-result");
  byId("guard-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const tools = requireTools(result);
    if (tools === null) return;
    const fields = { strictness: byId("guard-strictness").value, action: byId("guard-action").value };
    try {
      const report = await postJson("/api/v1/guard", jsonBody(fields, tools));
      const groups = new Map();
      for (const finding of report.findings) {
        const key = JSON.stringify([finding.tool, finding.field]);
        groups.set(key, [...(groups.get(key) ?? []), finding]);
      }
      const counts = report.counts ?? {};
      show(
        result,
        el("p", {}, report.findings.length === 0
          ? `No findings in ${report.n_tools} tools.`
          : `${report.findings.length} findings in ${report.flagged_tools.length} of ${report.n_tools} tools: ${counts.high ?? 0} high, ${counts.medium ?? 0} medium, ${counts.low ?? 0} low.`),
        [...groups.entries()].map(([key, findings]) => fieldView(...JSON.parse(key), findings)),
        (report.removed ?? []).length
          ? el("p", {}, `Removed: ${report.removed.map((item) => `${item.tool} ${item.field}`).join(", ")}.`)
          : null,
        (report.evidence ?? []).length ? [el("h3", {}, "What the study measured"), evidenceList(report.evidence)] : null,
      );
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
}
