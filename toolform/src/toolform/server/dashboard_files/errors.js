// An API error shown as the API's one shape says it: the code and status, the
// detail in words, and for a body that does not match the schema each place
// (as a JSON path) with the rule it broke.

import { el } from "./dom.js";

function jsonPath(location) {
  const parts = Array.isArray(location) ? location.slice(location[0] === "body" ? 1 : 0) : [];
  return "$" + parts.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`)).join("");
}

export function errorView(failure) {
  const code = failure.error ?? "error";
  const status = failure.status ? ` (${failure.status})` : "";
  const items = [];
  if (Array.isArray(failure.detail)) {
    for (const problem of failure.detail) {
      items.push(el("li", {}, el("code", { class: "path" }, jsonPath(problem.loc)), ": ", problem.msg ?? JSON.stringify(problem)));
    }
  }
  return el(
    "div",
    { class: "error", role: "alert" },
    el("p", {}, el("strong", { class: "error-code" }, code + status)),
    typeof failure.detail === "string" ? el("p", { class: "error-detail" }, failure.detail) : null,
    failure.line ? el("p", {}, `at line ${failure.line}`) : null,
    items.length ? el("ul", { class: "error-places" }, items) : null,
  );
}

export function localError(code, detail) {
  return errorView({ error: code, detail, status: 0 });
}
