// The p3 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, GenericCallContext, Instant, JsonValue } from "@flow/toolkit"
import type { Foo, Mut, _2FA, _2fa } from "./types.js"

/**
 * Tool `github.com/example/p3@0.1.0/h.flow.naïve`, fingerprint `sha256:502dcd160ea5f1b094b94412ae6e19528cf5bb201723563201ce6e35096d9ed5`.
 *
 * Generic in naïve: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function nau00EFve(
  _2fa: ReadonlySet<readonly Instant[]>,
  n0: _2fa<ReadonlyMap<Foo<Instant>, JsonValue>, Foo<Decimal>>,
  str: _2FA<ReadonlyMap<string, Foo<bigint>>, _2FA<JsonValue, _2fa<string, Decimal>>>,
  x1: Foo<JsonValue>,
  fIle: Mut,
  context: GenericCallContext,
): Promise<Decimal> {
  throw new Error("nau00EFve is not implemented yet")
}

/**
 * plain words
 *
 * Tool `github.com/example/p3@0.1.0/h.flow.tuple`, fingerprint `sha256:1bbb5667ea147a7480e753e4d612a0077b98dc2a666a8e09f298096fcc7e03e2`.
 *
 * To fail with the declared error, `throw error satisfies ReadonlyMap<string, Foo<Duration>>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<ReadonlyMap<string, Foo<Duration>>>(error)`.
 */
export async function tuple(
  implementation: bigint,
  context: CallContext,
): Promise<ReadonlyMap<ReadonlyMap<Foo<boolean>, Decimal>, ReadonlySet<Decimal>>> {
  throw new Error("tuple is not implemented yet")
}

/**
 * bidi ‮ reversed ⁦ isolate
 *
 * Tool `github.com/example/p3@0.1.0/h.flow.tab	here`, fingerprint `sha256:2c7cb0c8b08d2c2f73b9afa8f3fa48c9f3e1439cafe984972e913b273fb1b3c5`.
 */
export async function tabHere(
  tick: ReadonlyMap<string, ReadonlyMap<string, Duration>>,
  context: CallContext,
): Promise<Duration> {
  throw new Error("tabHere is not implemented yet")
}
