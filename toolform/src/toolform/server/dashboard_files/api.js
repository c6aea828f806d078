// Calls to this server's API. Every failure becomes an ApiError carrying the
// API's one error shape ({error, detail, status, line}), so every panel shows
// errors the same way.

export class ApiError extends Error {
  constructor(body) {
    super(typeof body.detail === "string" ? body.detail : body.error);
    this.error = body.error;
    this.detail = body.detail;
    this.status = body.status;
    this.line = body.line ?? null;
  }
}

// A request body as JSON text. Tools travel as the text the person gave,
// spliced in unparsed, so that their numbers reach the server exactly as
// written (JSON.parse would round big integers and long decimals).
export function jsonBody(fields, toolsJson = null) {
  const rest = JSON.stringify(fields);
  if (toolsJson === null) {
    return rest;
  }
  return rest === "{}" ? `{"tools":${toolsJson}}` : `{"tools":${toolsJson},${rest.slice(1)}`;
}

async function send(method, path, bodyText) {
  const options = { method, headers: { accept: "application/json" } };
  if (bodyText !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = bodyText;
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (failure) {
    throw new ApiError({
      error: "offline",
      detail: `the server did not answer (${failure.message}); is toolform serve still running?`,
      status: 0,
    });
  }
  const text = await response.text();
  let body;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    throw new ApiError({ error: "bad_reply", detail: `the server answered ${response.status} with text that is not JSON`, status: response.status });
  }
  if (!response.ok) {
    throw new ApiError(body && typeof body.error === "string" ? body : { error: "http_error", detail: text, status: response.status });
  }
  return body;
}

export const getJson = (path) => send("GET", path);
export const postJson = (path, bodyText) => send("POST", path, bodyText);
export const deleteJson = (path) => send("DELETE", path);
