// The p500155 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, GenericCallContext, HostToken, JsonValue, Option } from "@flow/toolkit"

/**
 * bidi ‮ reversed ⁦ isolate
 *
 * Tool `github.com/example/p500155@0.1.0/h.flow.x1`, fingerprint `sha256:8e4ada44053a121fae559f61555b24a225a8ada730e12e631ba1d58961620b99`.
 *
 * To fail with the declared error, `throw new Failed<boolean>(error)`.
 */
export async function x1(
  slots: ReadonlyMap<string, JsonValue>,
  u00E9: Option<readonly HostToken[] | undefined>,
  fOO: HostToken,
  zu00FCrich: HostToken,
  context: CallContext,
): Promise<HostToken> {
  throw new Error("x1 is not implemented yet")
}

/**
 * """
 * import os
 * """
 *
 * Tool `github.com/example/p500155@0.1.0/h.flow.None`, fingerprint `sha256:c19b8dd18bfccf521bcf42697e8b310c2b0dc37b67e75531f68f13177bbead7c`.
 *
 * To fail with the declared error, `throw error satisfies readonly JsonValue[]` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<readonly JsonValue[]>(error)`.
 *
 * Generic in _2fa: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function none(
  zu00FCrich: Option<JsonValue | undefined>,
  debug: Option<JsonValue | undefined>,
  x1: HostToken,
  context: GenericCallContext,
): Promise<null> {
  throw new Error("none is not implemented yet")
}

/**
 * Tool `github.com/example/p500155@0.1.0/h.flow.Foo_2`, fingerprint `sha256:4481a0aef216799dba17488849017871b82cb5c0a714facb05ed8ae094ef2654`.
 *
 * To fail with the declared error, `throw new Failed<Option<HostToken | undefined>>(error)`.
 */
export async function foo2(
  context: CallContext,
): Promise<string> {
  throw new Error("foo2 is not implemented yet")
}
