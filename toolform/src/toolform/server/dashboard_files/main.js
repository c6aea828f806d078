// The dashboard: every panel started, with the format and protocol lists
// fetched once from the registry.

import { getJson } from "./api.js";
import { startCatalogue } from "./panels/catalogue.js";
import { startCompare } from "./panels/compare.js";
import { startGuard } from "./panels/guard.js";
import { startMeasure } from "./panels/measure.js";
import { startParse } from "./panels/parse.js";
import { startRecommend } from "./panels/recommend.js";
import { startRender } from "./panels/render.js";
import { startStatus } from "./panels/status.js";
import { startStudy } from "./panels/study.js";
import { startTools } from "./panels/tools.js";

const registry = Promise.all([getJson("/api/v1/formats"), getJson("/api/v1/protocols")]).then(([formats, protocols]) => ({
  formats: formats.formats,
  protocols: protocols.protocols,
}));

// Without an endpoint a measurement could only be refused (409): Start stays disabled, with the reason.
const onHealth = startMeasure(registry);
startStatus(onHealth);
startTools();
const study = startStudy();
startCompare(registry);
startGuard();
startCatalogue();
startRecommend();
Promise.all([startRender(registry), startParse(registry), study]).then(
  () => document.body.setAttribute("data-ready", "true"),
  (failure) => {
    document.getElementById("status").textContent = `The format list could not be read: ${failure.message}`;
  },
);
