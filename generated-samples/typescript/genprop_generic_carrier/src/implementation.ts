// The carrier Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, GenericCallContext, JsonValue } from "@flow/toolkit"
import type { Bag, Holder, Keyed, Outer, Page, Pair, Wrap } from "./types.js"

/**
 * Tool `github.com/example/carrier@0.1.0/h.flow.echo`, fingerprint `sha256:3d2bbf1662eabe8bb9d910ec4ec52519eecb398169aa509b74015a1d5fc9ba51`.
 *
 * To fail with the declared error, `throw new Failed<string>(error)`.
 *
 * Generic in T: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function echo(
  x: Outer<Page<JsonValue>>,
  y: Pair<Page<JsonValue>, Bag<JsonValue>>,
  z: ReadonlySet<Page<JsonValue>>,
  w: ReadonlyMap<Pair<JsonValue, bigint>, string>,
  v: Page<Wrap<Page<JsonValue>>>,
  context: GenericCallContext,
): Promise<Page<Pair<JsonValue, Holder>>> {
  throw new Error("echo is not implemented yet")
}

/**
 * Tool `github.com/example/carrier@0.1.0/h.flow.plain`, fingerprint `sha256:23e09326a38e1d37da957e4c2bd1a247d3b2b64cf62011bf16a70390cd983782`.
 *
 * To fail with the declared error, `throw error satisfies Pair<Keyed, string>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<Pair<Keyed, string>>(error)`.
 */
export async function plain(
  h: Holder,
  k: Keyed,
  s: ReadonlySet<Holder>,
  o: Outer<bigint>,
  context: CallContext,
): Promise<Outer<Holder>> {
  throw new Error("plain is not implemented yet")
}
