// The p13 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, Instant, JsonValue } from "@flow/toolkit"
import type { FooBar, X, X1, X1_2, X1_3 } from "./types.js"

/**
 * Tool `github.com/example/p13@0.1.0/h.flow.a
 * b`, fingerprint `sha256:fc79f7f5c4c746d1e14cc6f068edb75a962dc1d8ebb2c230a086a7d59898b381`.
 */
export async function aB(
  n1: ReadonlyMap<string, readonly Decimal[]>,
  fooBar: X1,
  var_: X<FooBar | undefined>,
  foo2: X1_2<ReadonlyMap<string, X1>, ReadonlyMap<string, Instant>, FooBar>,
  x1: FooBar,
  u00E9: X1_3<null, ReadonlyMap<X1_3<JsonValue, Decimal, boolean>, Uint8Array>, bigint>,
  context: CallContext,
): Promise<readonly ReadonlyMap<string, X<Instant>>[]> {
  throw new Error("aB is not implemented yet")
}

/**
 * Tool `github.com/example/p13@0.1.0/h.flow.a"b`, fingerprint `sha256:0217088a4c48f4bcf3d1a36c1dca932e27920478a66a4a4dafb7d5a5c4b568de`.
 *
 * To fail with the declared error, `throw error satisfies readonly [X<bigint>, Uint8Array, X1_2<JsonValue, Instant, Uint8Array>]` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<readonly [X<bigint>, Uint8Array, X1_2<JsonValue, Instant, Uint8Array>]>(error)`.
 */
export async function aB_2(
  _2fa: Duration,
  context: CallContext,
): Promise<boolean> {
  throw new Error("aB_2 is not implemented yet")
}

/**
 * bidi ‮ reversed ⁦ isolate
 *
 * Tool `github.com/example/p13@0.1.0/h.flow.U00E9`, fingerprint `sha256:ffacb8a3c23c614ac886f93fee62bd05fb0ec31e57c7f3dd3432975dc71120f2`.
 */
export async function u00E9(
  n0: string,
  foo: boolean,
  x1: ReadonlySet<bigint>,
  context: CallContext,
): Promise<ReadonlyMap<string, ReadonlyMap<string, bigint>>> {
  throw new Error("u00E9 is not implemented yet")
}
