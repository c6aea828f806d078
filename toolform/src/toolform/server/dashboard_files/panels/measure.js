// Start, follow and cancel a measurement: POST /api/v1/ab-test, then its job
// polled until it ends, its scores drawn with their intervals.

import { deleteJson, getJson, jsonBody, postJson } from "../api.js";
import { scoresWithIntervals } from "../charts.js";
import { byId, el, interval, percent, show } from "../dom.js";
import { errorView } from "../errors.js";
import { loadedTools } from "../tools-state.js";

const POLL_EVERY_MS = 400;
const FINISHED = new Set(["done", "failed", "cancelled"]);

function scoresTable(scores) {
  return el(
    "table",
    {},
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
  );
}

function reportView(job) {
  const report = job.result;
  const verdict = report.verdict === "winner" ? `winner: ${report.winner} with ${report.winner_protocol}` : report.verdict.replace("_", " ");
  return el(
    "div",
    {},
    el("p", { class: "headline" }, el("strong", { class: "verdict" }, verdict), ` · ${report.verdict_reason}`),
    el("p", { class: "muted" }, "job ", el("code", { class: "job-id" }, job.id), ` · source ${report.source} · ${report.total_requests} requests to ${report.model} · rule ${report.rule}`),
    scoresWithIntervals(report.scores, report.verdict === "winner" ? report.winner : null),
    scoresTable(report.scores),
  );
}

export function startMeasure() {
  const result = byId("measure-result");
  const progress = byId("measure-progress");
  const state = byId("measure-state");
  const start = byId("measure-start");
  const cancel = byId("measure-cancel");
  let jobId = null;
  let timer = null;
  // A running job stops before its next request: until it says cancelled, say that it was asked to.
  let cancelling = false;

  function follow(job) {
    progress.max = Math.max(1, job.total);
    progress.value = job.done;
    const asked = cancelling && !FINISHED.has(job.status) ? ", cancelling" : "";
    state.textContent = `${job.status}${asked}: ${job.done} of ${job.total} requests`;
    if (!FINISHED.has(job.status)) return;
    cancelling = false;
    clearInterval(timer);
    timer = null;
    jobId = null;
    start.disabled = false;
    cancel.disabled = true;
    if (job.status === "done" && job.result) show(result, reportView(job));
    else if (job.status === "failed") show(result, errorView({ error: "measurement_failed", detail: job.error, status: 0 }));
    else show(result, el("p", {}, "The measurement was cancelled."));
  }

  async function poll() {
    if (jobId === null) return;
    try {
      follow(await getJson(`/api/v1/ab-test/${encodeURIComponent(jobId)}`));
    } catch (failure) {
      clearInterval(timer);
      timer = null;
      start.disabled = false;
      cancel.disabled = true;
      show(result, errorView(failure));
    }
  }

  byId("measure-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = {
      n_requests: Number(byId("measure-requests").value),
      concurrency: Number(byId("measure-concurrency").value),
      rule: byId("measure-rule").value,
    };
    const loaded = loadedTools();
    try {
      const accepted = await postJson("/api/v1/ab-test", jsonBody(fields, loaded ? loaded.toolsJson : null));
      jobId = accepted.job_id;
      cancelling = false;
      start.disabled = true;
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
}
