// The tools the person loaded, shared by every panel: the tools object as the
// JSON text sent to the API, and the IR the server returned for them.

import { localError } from "./errors.js";

let current = null;
const listeners = [];

export function setTools(toolsJson, ir, summary) {
  current = { toolsJson, ir, summary };
  for (const listener of listeners) listener(current);
}

export function onTools(listener) {
  listeners.push(listener);
}

export function loadedTools() {
  return current;
}

// The tools object's JSON text, or null with a message shown in ``container``.
export function requireTools(container) {
  if (current === null) {
    container.replaceChildren(localError("no_tools", "no tools are loaded: load or paste tools in the Tools panel first"));
    return null;
  }
  return current.toolsJson;
}
