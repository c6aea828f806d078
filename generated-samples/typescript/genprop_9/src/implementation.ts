// The p9 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, HostToken, Instant, JsonValue } from "@flow/toolkit"
import type { N2, U00E9, X1_2, X1_4 } from "./types.js"

/**
 * a trailing quote "
 *
 * Tool `github.com/example/p9@0.1.0/h.flow.a,b`, fingerprint `sha256:56069ab50df4a3b240896f951057b316c880c593cd08659eeb9314d4a36ff0e3`.
 *
 * To fail with the declared error, `throw new Failed<string>(error)`.
 */
export async function aB(
  u00C9: HostToken,
  u00e9: X1_2<Uint8Array, ReadonlyMap<U00E9<bigint, Decimal, Duration>, N2<Uint8Array>>, readonly [HostToken, Decimal]>,
  n2: U00E9<readonly U00E9<Uint8Array, Decimal, string>[], null, N2<Instant>>,
  x1: HostToken,
  fooBar: X1_2<ReadonlyMap<Decimal, Decimal>, JsonValue, Uint8Array>,
  exception: N2<Decimal>,
  aB: HostToken,
  x1_2: HostToken,
  symbol_: HostToken,
  foo: X1_4<boolean>,
  context: CallContext,
): Promise<Uint8Array> {
  throw new Error("aB is not implemented yet")
}
