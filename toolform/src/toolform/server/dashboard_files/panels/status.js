// Online status: the server is probed at /api/v1/health now and every few seconds.

import { getJson } from "../api.js";
import { byId } from "../dom.js";

const PROBE_EVERY_MS = 15000;

export function startStatus(onHealth) {
  const line = byId("status");
  async function probe() {
    try {
      const health = await getJson("/api/v1/health");
      const endpoint = health.endpoint_configured ? "model endpoint configured" : "no model endpoint";
      line.textContent = `Online · toolform ${health.version} · evidence ${health.evidence_version ?? "missing"} · ${endpoint}`;
      line.className = "status status-online";
      onHealth(health);
    } catch (failure) {
      line.textContent = `Offline: ${failure.message}`;
      line.className = "status status-offline";
      onHealth(null);
    }
  }
  probe();
  setInterval(probe, PROBE_EVERY_MS);
}
