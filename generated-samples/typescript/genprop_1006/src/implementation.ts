// The p1006 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, HostToken, Instant, JsonValue } from "@flow/toolkit"
import type { N0, N1, X1, X1_2, u01C4ungla } from "./types.js"

/**
 * plain words
 *
 * Tool `github.com/example/p1006@0.1.0/h.flow.char`, fingerprint `sha256:439da5be6fec96bce8357df4915697bbbc8f987e2b5995b0f792b9b0fb23a4d8`.
 *
 * To fail with the declared error, `throw new Failed<string>(error)`.
 */
export async function char(
  u00E9: N1<ReadonlyMap<bigint, N0<bigint>>>,
  u00C9: HostToken,
  n1: X1<u01C4ungla<X1_2<Uint8Array, Instant, Uint8Array>, N1<boolean>>, null, X1_2<u01C4ungla<bigint, Uint8Array>, string, Instant>>,
  send: N0<N1<Uint8Array>>,
  x1: u01C4ungla<X1_2<JsonValue, Uint8Array, N1<bigint>>, HostToken>,
  u01C4ungla: N1<ReadonlyMap<JsonValue, boolean>>,
  trait: X1_2<ReadonlyMap<X1<Uint8Array, boolean, Uint8Array>, X1_2<Decimal, Instant, Instant>>, readonly [string, X1_2<string, Uint8Array, boolean>, bigint], ReadonlySet<X1_2<Decimal, bigint, Instant>>>,
  context: CallContext,
): Promise<null> {
  throw new Error("char is not implemented yet")
}

/**
 * bidi ‮ reversed ⁦ isolate
 *
 * Tool `github.com/example/p1006@0.1.0/h.flow.u00E9`, fingerprint `sha256:26251913183e2ab8b55e521f12d9343be934ec1f3afbce4f5975c2edc2a3a6eb`.
 */
export async function u00E9(
  foo2: Decimal,
  x1: ReadonlySet<X1<Instant, boolean, Instant>>,
  context: CallContext,
): Promise<ReadonlySet<ReadonlyMap<string, string>>> {
  throw new Error("u00E9 is not implemented yet")
}

/**
 * a trailing backslash \
 *
 * Tool `github.com/example/p1006@0.1.0/h.flow.é`, fingerprint `sha256:5c3c0e1e9ebb5450e5d99ab1cb9861ed9f3a62c43a317f696dd6720deb1657d7`.
 *
 * To fail with the declared error, `throw new Failed<Uint8Array>(error)`.
 */
export async function u00C9(
  context: CallContext,
): Promise<X1<u01C4ungla<Uint8Array, HostToken>, JsonValue, ReadonlyMap<Instant, u01C4ungla<Duration, Uint8Array>>>> {
  throw new Error("u00C9 is not implemented yet")
}
