// The p0 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import type { GenericCallContext, JsonValue } from "@flow/toolkit"
import type { Big, Pair } from "./types.js"

/**
 * Generic itself: its Params say owner `tool` too.
 *
 * Tool `github.com/example/p0@0.1.0/h.flow.tool`, fingerprint `sha256:bbd554bd6e817eeaf55741012d95fc59871e5cadcf7bad433008738751aa9772`.
 *
 * Generic in X: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function tool(
  big: Big<bigint>,
  pair: Pair<string, JsonValue>,
  context: GenericCallContext,
): Promise<Pair<bigint, Big<boolean>>> {
  throw new Error("tool is not implemented yet")
}
