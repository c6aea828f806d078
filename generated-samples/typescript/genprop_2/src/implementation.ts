// The p2 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, HostToken, Instant } from "@flow/toolkit"
import type { FOOBAR, FooBar, PartialEq, u03A9mega } from "./types.js"

/**
 * ends *\/ here
 * const x: number = "a comment ended early"
 *
 * Tool `github.com/example/p2@0.1.0/h.flow.foo`, fingerprint `sha256:a7ecc759329120c2c3a0f524b07a3390ae85ed616338befb2951592fc7fb7af3`.
 *
 * To fail with the declared error, `throw new Failed<string>(error)`.
 */
export async function foo(
  u03A9mega: Decimal,
  fOO: PartialEq,
  fooBar: FOOBAR<ReadonlyMap<Instant, FooBar<Uint8Array>>, FOOBAR<FOOBAR<boolean, Duration>, u03A9mega>>,
  tuple: u03A9mega,
  fooBar_2: FooBar<ReadonlySet<bigint>>,
  n1: HostToken,
  context: CallContext,
): Promise<ReadonlyMap<string, readonly [boolean, u03A9mega]>> {
  throw new Error("foo is not implemented yet")
}

/**
 * plain words
 *
 * Tool `github.com/example/p2@0.1.0/h.flow.tools`, fingerprint `sha256:cba5f95d1e2e83c3080ffecda9846ec123c1ec8e19f8eef628a9a3ebcf55b4bc`.
 *
 * To fail with the declared error, `throw error satisfies ReadonlyMap<string, HostToken>` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<ReadonlyMap<string, HostToken>>(error)`.
 */
export async function tools_(
  context: CallContext,
): Promise<bigint> {
  throw new Error("tools_ is not implemented yet")
}

/**
 * a trailing quote "
 *
 * Tool `github.com/example/p2@0.1.0/h.flow.{{x}}`, fingerprint `sha256:7f5500d921ad5599bc8a5c3305a3908a647872546f99f82df2b1991da261280c`.
 *
 * To fail with the declared error, `throw new Failed<string | undefined>(error)`.
 */
export async function x(
  context: CallContext,
): Promise<readonly [Duration, Duration, FOOBAR<Duration, boolean>] | undefined> {
  throw new Error("x is not implemented yet")
}
