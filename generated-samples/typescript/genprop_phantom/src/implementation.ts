// The phantom Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, GenericCallContext, HostToken, JsonValue } from "@flow/toolkit"
import type { Empty, Half, Holder, Mark, Marked, Tag } from "./types.js"

/**
 * Tool `github.com/example/phantom@0.1.0/h.flow.use_tags`, fingerprint `sha256:2c2a6b3f0e8cb2297414d7691a23a51f4c54ca6f0f8e4a93622e32e0c5de5f5d`.
 *
 * To fail with the declared error, `throw error satisfies Mark<bigint, string>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<Mark<bigint, string>>(error)`.
 */
export async function useTags(
  h: Holder,
  m: Marked<bigint, bigint, bigint, bigint>,
  e: Empty<bigint>,
  half: Half<string, string>,
  context: CallContext,
): Promise<Half<bigint, HostToken>> {
  throw new Error("useTags is not implemented yet")
}

/**
 * Tool `github.com/example/phantom@0.1.0/h.flow.generic`, fingerprint `sha256:d4a44d138710b047caf77754f56a3aada2ce1bd45df8a56008272ab72a3695d6`.
 *
 * To fail with the declared error, `throw error satisfies Empty<JsonValue>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<Empty<JsonValue>>(error)`.
 *
 * Generic in T: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function generic(
  t: Tag<JsonValue>,
  s: ReadonlySet<Tag<JsonValue>>,
  h: Half<JsonValue, JsonValue>,
  k: ReadonlyMap<Mark<JsonValue, JsonValue>, bigint>,
  context: GenericCallContext,
): Promise<Marked<JsonValue, JsonValue, JsonValue, JsonValue>> {
  throw new Error("generic is not implemented yet")
}
