// The p500345 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import type { Decimal, GenericCallContext, HostToken, Instant, JsonValue } from "@flow/toolkit"
import type { Ref, _ } from "./types.js"

/**
 * Tool `github.com/example/p500345@0.1.0/h.flow.file`, fingerprint `sha256:5790251469bd50134f0712284e67626d193353f87d209e35d2366bcfc19cefda`.
 *
 * Generic in *\, struct: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function file(
  slots: _<JsonValue | undefined, _<Ref<string, Decimal, Instant>, JsonValue, HostToken>, ReadonlyMap<string, HostToken>>,
  crate: Ref<never, ReadonlyMap<Uint8Array, Uint8Array>, HostToken>,
  future: HostToken,
  context: GenericCallContext,
): Promise<null> {
  throw new Error("file is not implemented yet")
}
