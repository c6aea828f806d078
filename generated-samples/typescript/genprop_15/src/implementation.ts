// The p15 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, GenericCallContext, HostToken, Instant, JsonValue } from "@flow/toolkit"
import type { Foo, Future, Infer, JsonValue_, Tick } from "./types.js"

/**
 * plain words
 *
 * Tool `github.com/example/p15@0.1.0/h.flow.x1`, fingerprint `sha256:cd1c89d4f6152772d1f8113db068a18131bdb3346fb08d41ebe9807a5c3beb98`.
 *
 * Generic in x1, x_1: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function x1(
  end: ReadonlySet<readonly [string, Infer<Decimal, bigint, boolean>, Tick<Duration, string, string>]>,
  box: HostToken,
  aB: JsonValue_<null, string>,
  bytes: Future<ReadonlyMap<string, Infer<Duration, Uint8Array, boolean>>, JsonValue, ReadonlySet<boolean>>,
  dyn: Foo<JsonValue>,
  n4: Infer<readonly [boolean, JsonValue], readonly [Infer<Instant, boolean, Uint8Array>, Foo<Duration>], JsonValue>,
  u00e9: Tick<JsonValue, ReadonlyMap<string, JsonValue>, Foo<Infer<JsonValue, Duration, Uint8Array>>>,
  context: GenericCallContext,
): Promise<ReadonlyMap<string, HostToken>> {
  throw new Error("x1 is not implemented yet")
}

/**
 * a trailing quote "
 *
 * Tool `github.com/example/p15@0.1.0/h.flow.ContextDict`, fingerprint `sha256:3986ed8c05c3201da9cc80d72a85e7839b17e2a611b4e390eea95151ce06bf9e`.
 *
 * To fail with the declared error, `throw error satisfies Tick<Uint8Array, Foo<Duration>, Uint8Array>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<Tick<Uint8Array, Foo<Duration>, Uint8Array>>(error)`.
 */
export async function contextDict(
  context: CallContext,
): Promise<Foo<JsonValue> | undefined> {
  throw new Error("contextDict is not implemented yet")
}

/**
 * plain words
 *
 * Tool `github.com/example/p15@0.1.0/h.flow.flow_core`, fingerprint `sha256:c88ba811675b6e134f40f8a0f7affbfb61ebc72c18e6d5d005777f15d39311a4`.
 *
 * To fail with the declared error, `throw error satisfies JsonValue_<Decimal, Foo<Instant>>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<JsonValue_<Decimal, Foo<Instant>>>(error)`.
 */
export async function flowCore(
  u65E5u672C: ReadonlySet<boolean>,
  context: CallContext,
): Promise<Foo<ReadonlyMap<JsonValue_<bigint, JsonValue>, string>>> {
  throw new Error("flowCore is not implemented yet")
}
