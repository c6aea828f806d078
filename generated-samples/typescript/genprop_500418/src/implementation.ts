// The p500418 Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import type { CallContext, Decimal, Duration, HostToken, Option } from "@flow/toolkit"
import type { Implements, N1, New, Public, Tuple, _2fa } from "./types.js"

/**
 * {{ name }} {% if x %}{% endif %} {# c #} ${x} `tick`
 *
 * Tool `github.com/example/p500418@0.1.0/h.flow.loop`, fingerprint `sha256:82c810e9ab80b7645ddeda7bedfe236bf92b2642d41fba06340f452a9fc90c0e`.
 */
export async function loop(
  _2fa: Tuple<Option<Tuple<boolean, boolean, bigint> | undefined>, null, null>,
  n3: ReadonlyMap<ReadonlyMap<Public, New>, HostToken | undefined>,
  annotations: New,
  callContext: HostToken,
  u0661u0662: Public,
  yield_: _2fa<readonly [New, HostToken, N1], Option<Decimal | undefined>>,
  x1: HostToken,
  fooBar: Implements<HostToken, readonly [HostToken, Duration, Public]>,
  symbol_: N1,
  n1: Tuple<ReadonlyMap<string, Duration>, _2fa<Implements<Uint8Array, bigint>, Tuple<boolean, Decimal, string>>, Uint8Array>,
  context: CallContext,
): Promise<null> {
  throw new Error("loop is not implemented yet")
}
