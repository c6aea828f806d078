// The p7 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, Instant, JsonValue, Option } from "@flow/toolkit"
import type { Decimal_, End, Foo2, FooBar, Object_ } from "./types.js"

/**
 * Tool `github.com/example/p7@0.1.0/h.flow.u00E9`, fingerprint `sha256:fd50ee17c43854f7d4e82a1b68928cd91a8cc9dcaaa74ae94a5aef2f87c02a78`.
 *
 * To fail with the declared error, `throw new Failed<Decimal>(error)`.
 */
export async function u00E9(
  _: Foo2<null, Instant>,
  self: Object_,
  fooBar: End<ReadonlyMap<JsonValue, Foo2<bigint, bigint>>>,
  string_: FooBar<ReadonlyMap<End<Duration>, boolean>, ReadonlyMap<string, Decimal>, null>,
  null_: Decimal_<ReadonlyMap<string, Duration>, Option<FooBar<bigint, string, bigint> | undefined>>,
  context: CallContext,
): Promise<Option<ReadonlyMap<string, FooBar<bigint, boolean, boolean>> | undefined>> {
  throw new Error("u00E9 is not implemented yet")
}
