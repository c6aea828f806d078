// The p500276 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, HostToken, Instant, JsonValue, Option } from "@flow/toolkit"
import type { N4, Object_, Record_, Void, X1, _2FA, _2fa } from "./types.js"

/**
 * """
 * import os
 * """
 *
 * Tool `github.com/example/p500276@0.1.0/h.flow.IntoValue`, fingerprint `sha256:b03ef34387fbd3e069250ae0fff969cc5dc7e2d0466704728ba74bac173023fa`.
 *
 * To fail with the declared error, `throw new Failed<string>(error)`.
 */
export async function intoValue(
  x1: Option<ReadonlyMap<string, JsonValue> | undefined>,
  n3: null,
  k: ReadonlyMap<string, readonly _2FA<JsonValue>[]>,
  strau00DFe: Void,
  x1_2: Object_<ReadonlyMap<_2fa<JsonValue, boolean, Decimal>, N4<Duration, Uint8Array, bigint>>>,
  u00D1andu00FA: _2fa<bigint, ReadonlyMap<Record_<boolean>, Duration>, ReadonlySet<N4<bigint, string, JsonValue>>>,
  void_: Record_<readonly Decimal[]>,
  x1_3: HostToken,
  object_: N4<readonly Decimal[], Duration, boolean>,
  addNote: X1<_2FA<Instant>, Instant, null>,
  k_2: _2FA<string>,
  context: CallContext,
): Promise<readonly (_2fa<bigint, Decimal, JsonValue> | undefined)[]> {
  throw new Error("intoValue is not implemented yet")
}

/**
 * *\/ and *\\/ and **\/
 *
 * Tool `github.com/example/p500276@0.1.0/h.flow.n1`, fingerprint `sha256:ad023b45e98e76df0bf4dc675d87fbe429564d47a1f4e300905a50149c32ae2e`.
 *
 * To fail with the declared error, `throw error satisfies _2FA<boolean>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<_2FA<boolean>>(error)`.
 */
export async function n1(
  x1: Void,
  u00C9: JsonValue,
  context: CallContext,
): Promise<readonly [Instant, readonly [JsonValue, _2fa<JsonValue, boolean, bigint>], readonly string[]]> {
  throw new Error("n1 is not implemented yet")
}
