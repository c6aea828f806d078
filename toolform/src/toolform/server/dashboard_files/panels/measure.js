// A measurement the person drives: their examples (a file or pasted) or
// generated requests, the formats, concurrency and rule; then POST
// /api/v1/ab-test, the job polled with an ETA, each request's record shown as
// it is graded, the report to download as JSON or CSV, and the history of past
// measurements from the job store and the local evidence store.

import { deleteJson, getJson, jsonBody, postJson } from "../api.js";
import { scoresWithIntervals } from "../charts.js";
import { byId, el, interval, percent, show } from "../dom.js";
import { errorView, localError } from "../errors.js";
import { loadedTools } from "../tools-state.js";

const POLL_EVERY_MS = 400;
const FINISHED = new Set(["done", "failed", "cancelled", "interrupted"]);
// Rows of the records table kept on the page; the downloads hold every one.
const SHOWN_RECORDS = 500;

function scoresTable(scores) {
  return el(
    "div",
    { class: "scroll" },
    el(
      "table",
      { class: "scores" },
      el("thead", {}, el("tr", {}, ["format", "protocol", "correct / n", "accuracy", "interval", "errors"].map((name) => el("th", { scope: "col" }, name)))),
      el(
        "tbody",
        {},
        scores.map((score) =>
          el(
            "tr",
            {},
            el("th", { scope: "row" }, el("code", {}, score.format_id)),
            el("td", {}, score.protocol_id),
            el("td", { class: "number" }, `${score.correct} / ${score.n}`),
            el("td", { class: "number" }, percent(score.accuracy)),
            el("td", { class: "number" }, interval(score.interval)),
            el("td", { class: "number" }, String(score.errors)),
          ),
        ),
      ),
    ),
  );
}

function downloads(jobId) {
  const base = `/api/v1/ab-test/${encodeURIComponent(jobId)}/report`;
  return el(
    "p",
    { class: "downloads" },
    "The report: ",
    el("a", { href: `${base}?format=json`, download: "", class: "download-json" }, "JSON (the result and every record)"),
    " and ",
    el("a", { href: `${base}?format=csv`, download: "", class: "download-csv" }, "CSV (one row per request)"),
  );
}

function reportView(job) {
  const report = job.result;
  const verdict = report.verdict === "winner" ? `winner: ${report.winner} with ${report.winner_protocol}` : report.verdict.replace("_", " ");
  return el(
    "div",
    {},
    el("p", { class: "headline" }, el("strong", { class: "verdict" }, verdict), report.verdict_reason ? ` ${report.verdict_reason}` : ""),
    el("p", { class: "muted" }, "job ", el("code", { class: "job-id" }, job.id), `: ${report.total_requests} requests to ${report.model} (${report.source === "examples" ? "your examples" : "generated requests"}), rule ${report.rule}`),
    scoresWithIntervals(report.scores, report.verdict === "winner" ? report.winner : null, byId("measure-form").clientWidth),
    scoresTable(report.scores),
    downloads(job.id),
  );
}

function recordRow(record, number) {
  const verdict = record.error ? "failed" : record.correct ? "correct" : "wrong";
  const parse = record.error ? "no reply" : `${record.parse_strict ? "read strictly" : "not read strictly"}${record.hallucinated ? ", invented a tool" : ""}`;
  return el(
    "tr",
    { class: `record record-${verdict}` },
    el("td", { class: "number", "data-label": "#" }, String(number)),
    el("td", { "data-label": "format" }, el("code", {}, record.format_id)),
    el("td", { class: "text", "data-label": "request" }, record.request),
    el("td", { class: "text", "data-label": "reply" }, el("pre", { class: "reply" }, record.reply || record.error)),
    el("td", { "data-label": "grade" }, el("strong", { class: `grade grade-${verdict}` }, verdict), el("br"), el("span", { class: "muted" }, parse)),
    el("td", { class: "text why", "data-label": "why" }, record.reason || ""),
  );
}

function recordsTable() {
  return el(
    "table",
    { class: "records" },
    el("thead", {}, el("tr", {}, ["#", "format", "request", "reply", "grade", "why"].map((name) => el("th", { scope: "col" }, name)))),
    el("tbody", {}),
  );
}

export function etaText(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}

// The examples as JSON text (an array), from a JSON array or one object a line; the numbers keep their digits.
export function examplesJson(text) {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (trimmed.startsWith("[")) {
    JSON.parse(trimmed); // only to report a mistake here; the text itself is sent
    return trimmed;
  }
  const lines = trimmed.split(/\r?\n/).map((line, index) => [line.trim(), index + 1]).filter(([line]) => line !== "");
  for (const [line, number] of lines) {
    try {
      JSON.parse(line);
    } catch (failure) {
      throw new Error(`line ${number} of the examples is not JSON (${failure.message}); give one {"request", "calls"} object a line, or a JSON array`);
    }
  }
  return `[${lines.map(([line]) => line).join(",")}]`;
}

export function startMeasure(registry) {
  const result = byId("measure-result");
  const recordsBox = byId("measure-records");
  const progress = byId("measure-progress");
  const state = byId("measure-state");
  const start = byId("measure-start");
  const cancel = byId("measure-cancel");
  const why = byId("measure-endpoint");
  let endpointReady = false;
  let jobId = null;
  let timer = null;
  let nextRecord = 0;
  let table = null;
  let seen = null; // [time, done] when the job was first seen running, for the ETA
  let cancelling = false;

  function setStartable() {
    start.disabled = !endpointReady || jobId !== null;
  }

  function showRecords(records) {
    if (table === null) {
      table = recordsTable();
      show(recordsBox, el("h3", {}, "Requests as they are graded"), el("div", { class: "scroll records-box" }, table));
    }
    const body = table.tBodies[0];
    for (const record of records) {
      nextRecord += 1;
      body.append(recordRow(record, nextRecord));
    }
    while (body.rows.length > SHOWN_RECORDS) body.deleteRow(0);
  }

  async function pullRecords(id) {
    const answer = await getJson(`/api/v1/ab-test/${encodeURIComponent(id)}/records?after=${nextRecord}`);
    if (answer.records.length) showRecords(answer.records);
  }

  function follow(job) {
    progress.max = Math.max(1, job.total);
    progress.value = job.done;
    const asked = cancelling && !FINISHED.has(job.status) ? ", cancelling" : "";
    let eta = "";
    if (job.status === "running") {
      const now = performance.now();
      if (seen === null || job.done < seen[1]) seen = [now, job.done];
      const rate = (job.done - seen[1]) / ((now - seen[0]) / 1000);
      eta = job.done > seen[1] && rate > 0 ? etaText((job.total - job.done) / rate) : "estimating the time left";
    }
    state.textContent = `${job.status}${asked}: ${job.done} of ${job.total} requests${eta ? `, ${eta}` : ""}`;
    byId("measure-eta").textContent = eta;
    if (!FINISHED.has(job.status)) return;
    cancelling = false;
    clearInterval(timer);
    timer = null;
    const finished = jobId;
    jobId = null;
    seen = null;
    setStartable();
    cancel.disabled = true;
    if (job.status === "done" && job.result) show(result, reportView(job));
    else if (job.status === "failed") show(result, errorView({ error: "measurement_failed", detail: job.error, status: 0 }), finished ? downloads(finished) : null);
    else if (job.status === "interrupted") show(result, el("p", { class: "warning" }, job.error), finished ? downloads(finished) : null);
    else show(result, el("p", {}, "The measurement was cancelled."), finished ? downloads(finished) : null);
    refreshHistory();
  }

  async function poll() {
    if (jobId === null) return;
    const id = jobId;
    try {
      await pullRecords(id);
      const job = await getJson(`/api/v1/ab-test/${encodeURIComponent(id)}`);
      if (FINISHED.has(job.status)) await pullRecords(id);
      follow(job);
    } catch (failure) {
      clearInterval(timer);
      timer = null;
      jobId = null;
      setStartable();
      cancel.disabled = true;
      show(result, errorView(failure));
    }
  }

  function chosenFormats() {
    const ticked = [...document.querySelectorAll("#measure-formats input[type=checkbox]:checked")].map((box) => box.value);
    const more = byId("measure-more-formats").value.split(/[\s,]+/).filter(Boolean);
    return [...new Set([...ticked, ...more])];
  }

  function requestBody() {
    const formats = chosenFormats();
    if (formats.length === 0) throw new Error("tick at least one format, or name one under more formats");
    const fields = {
      formats,
      n_requests: Number(byId("measure-requests").value),
      concurrency: Number(byId("measure-concurrency").value),
      rule: byId("measure-rule").value,
    };
    const loaded = loadedTools();
    const examples = examplesJson(byId("measure-examples").value);
    if (examples !== null && !loaded) throw new Error("examples need the tools they call: load them in the Tools panel first");
    const body = jsonBody(fields, loaded ? loaded.toolsJson : null);
    return examples === null ? body : `${body.slice(0, -1)},"examples":${examples}}`;
  }

  byId("measure-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!endpointReady) return;
    let body;
    try {
      body = requestBody();
    } catch (failure) {
      show(result, localError("bad_input", failure.message));
      return;
    }
    try {
      const accepted = await postJson("/api/v1/ab-test", body);
      jobId = accepted.job_id;
      cancelling = false;
      nextRecord = 0;
      table = null;
      seen = null;
      show(recordsBox);
      setStartable();
      cancel.disabled = false;
      show(result, (accepted.warnings ?? []).length ? el("ul", { class: "warnings" }, accepted.warnings.map((text) => el("li", {}, text))) : null);
      follow({ status: accepted.status, done: 0, total: accepted.total });
      timer = setInterval(poll, POLL_EVERY_MS);
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
  cancel.addEventListener("click", async () => {
    if (jobId === null) return;
    cancelling = true;
    cancel.disabled = true;
    try {
      follow(await deleteJson(`/api/v1/ab-test/${encodeURIComponent(jobId)}`));
    } catch (failure) {
      show(result, errorView(failure));
    }
  });
  byId("measure-examples-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) byId("measure-examples").value = await file.text();
  });

  // A job still running when the page opens (another tab, a reload) is followed as if started here.
  function resume(jobs) {
    const active = jobs.find((job) => job.status === "running" || job.status === "queued");
    if (active === undefined || jobId !== null) return;
    jobId = active.id;
    nextRecord = 0;
    table = null;
    seen = null;
    setStartable();
    cancel.disabled = false;
    follow({ status: active.status, done: active.done, total: active.total });
    timer = setInterval(poll, POLL_EVERY_MS);
  }

  const history = byId("measure-history");
  async function refreshHistory(first = false) {
    try {
      const [jobs, evidence] = await Promise.all([getJson("/api/v1/ab-test?limit=20"), getJson("/api/v1/evidence")]);
      if (first) resume(jobs.jobs);
      const stored = evidence.local?.files ?? [];
      show(
        history,
        jobs.jobs.length
          ? el("div", { class: "scroll" }, el("table", { class: "history" },
              el("thead", {}, el("tr", {}, ["started (UTC)", "model", "formats", "rule", "state", "verdict", "report"].map((name) => el("th", { scope: "col" }, name)))),
              el("tbody", {}, jobs.jobs.map((job) => el("tr", { "data-job": job.id },
                el("td", {}, job.created_at.replace("T", " ").replace("Z", "")),
                el("td", {}, el("code", {}, job.model)),
                el("td", { class: "number" }, String(job.formats.length)),
                el("td", {}, job.rule),
                el("td", {}, `${job.status}, ${job.done} of ${job.total}`),
                el("td", {}, job.winner ? `winner ${job.winner}` : (job.verdict ?? "").replace("_", " ")),
                el("td", {}, el("a", { href: `/api/v1/ab-test/${encodeURIComponent(job.id)}/report?format=json`, download: "" }, "JSON"), " ",
                  el("a", { href: `/api/v1/ab-test/${encodeURIComponent(job.id)}/report?format=csv`, download: "" }, "CSV")))))))
          : el("p", { class: "muted" }, "No measurement yet."),
        stored.length
          ? [el("h4", {}, `In the local evidence store (${evidence.local.directory})`),
             el("ul", { class: "evidence stored" }, stored.map((file) => el("li", {}, `${file.date}: ${file.model}, rule ${file.rule} `, el("span", { class: "source" }, file.source))))]
          : null,
      );
    } catch (failure) {
      show(history, errorView(failure));
    }
  }
  refreshHistory(true);

  registry.then(({ formats }) => {
    const core = formats.filter((format) => format.core);
    show(byId("measure-formats-boxes"), core.map((format) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", value: format.id, checked: true }), el("code", {}, format.id))));
    byId("measure-format-ids").replaceChildren(...formats.filter((format) => format.in_study).map((format) => el("option", { value: format.id })));
  });

  // Start is enabled only once the server says it has an endpoint; the reason shows otherwise.
  return (health) => {
    endpointReady = health !== null && health.endpoint_configured === true;
    why.hidden = endpointReady;
    why.textContent = health === null
      ? "Start is disabled: the server does not answer."
      : "Start is disabled: this server has no model endpoint. Start it with --endpoint URL --endpoint-model ID to measure.";
    setStartable();
  };
}
