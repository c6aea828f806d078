{{ header }}
//
// What the Tool process answers `describe` with, fixed at generation time in
// the JSON files beside this module: the tools listing (flow.tools.json), and
// each Tool's identity, fingerprint and signature (describe.json). tsc writes
// both into dist/ beside the compiled module. JSON.stringify hands the runtime
// the same values it read: both files hold text, booleans, null and small
// counts, never a number JavaScript would round.

import type { ServedMetadata } from "@flow/toolkit"
import describe from "./describe.json" with { type: "json" }
import listing from "./flow.tools.json" with { type: "json" }

export const metadata: ServedMetadata = {
  listing: JSON.stringify(listing),
  tools: JSON.stringify(describe.tools),
}
