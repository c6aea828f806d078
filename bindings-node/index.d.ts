import type { JsonValue, Limits, TypeTerm } from './lib/index'
/**
 * Which binding artifact the generated loader actually loaded: `'native'` for
 * a native addon, otherwise the `platformArchABI` of the WASI flavor. Every
 * flavor napi-rs can build is listed, because `NAPI_RS_NATIVE_LIBRARY_PATH`
 * can point the loader at a WASI artifact this package does not build itself.
 */
export declare const __napiBindingTarget: 'native' | 'wasm32-wasi' | 'wasm32-wasip1'

/** Decodes and encodes values of one type, under the default limits. */
export declare class Codec {
  /** The type term, as canonical JSON text. */
  get type(): string
  /**
   * Decodes JSON text at this type (`host-boundary.md`, "Decoding"): never
   * coercing, guessing or filling a default. A refusal throws a `FlowError`.
   */
  decode(text: string | Uint8Array, limits?: Limits): unknown
  /**
   * The canonical text of a value of this type. A value that is not of the
   * type throws a `FlowError` naming the path (`$.days[0].high_c`).
   */
  encode(value: unknown): string
  /**
   * A value of this type from its JSON (as `parse` gives it, or as a
   * generic Tool's context hands it over).
   */
  fromJson(json: JsonValue): unknown
  /** The JSON of a value of this type (its encoding, with exact numbers). */
  toJson(value: unknown): JsonValue
  /**
   * Flow's order between two values of this type (`decisions.md` 3):
   * negative, zero or positive. Sort with `values.sort((a, b) => codec.compare(a, b))`.
   */
  compare(a: unknown, b: unknown): number
  /** Flow's equality between two values of this type. */
  equals(a: unknown, b: unknown): boolean
}

/**
 * Serves the Tools of generated metadata over the process's stdin and
 * stdout. Used by `serve()` in `lib/serve.js`; not for direct use.
 */
export declare class Server {
  /**
   * `listing` is the tools listing's text; `tools` the JSON text of the
   * served entries `[{tool, fingerprint, signature}]` embedded at
   * generation time. An entry whose fingerprint is not the listing's own
   * (a hand-edited or stale metadata file) is refused. `args` are the
   * process's arguments: none speaks the Flow protocol, `--mcp` serves MCP
   * clients, anything else is refused with the usage (an error whose
   * `code` is `InvalidArg`).
   */
  constructor(listing: string, tools: string, args: string[])
  /** The identities served, in the order handlers are given. */
  get tools(): Array<string>
  /**
   * Starts reading stdin on a thread of its own; `onEvent(kind, id, tool,
   * args, run, call, generic)` is called on the JS thread with kind 0
   * (start a call: its run and call ids, and for a generic call the
   * handle `genericContext` takes, else undefined), 1 (cancel call `id`)
   * or 2 (stdin ended: no more calls will come). Replies are written
   * when `flush` is called.
   */
  start(onEvent: (kind: number, id: number, tool: number, args: unknown[], run: string, call: string, generic: unknown) => void): void
  /**
   * Ends call `id`: kind 0 with its result, 1 with its declared error,
   * 2 with a description of what else stopped the handler (Unknown), 3
   * with a value the handler threw: Failed when it is of the declared
   * error type, else Unknown.
   */
  finish(id: number, kind: number, value: unknown): void
  /**
   * Writes every finished reply not written yet, in one `write` when the
   * pipe takes it.
   */
  flush(): void
  /**
   * A generic call's `types`, `schema` and `codecs` (host-boundary.md,
   * "Toolkits"), from the handle `onEvent` gave with the call: built
   * when its handler first reads one, so a handler that reads none does
   * not pay for them.
   */
  genericContext(handle: unknown): Record<string, unknown>
  /** The `describe` result this server answers. */
  describe(): JsonValue
}

/** The types of a tools listing (the output of `flow tools`), validated. */
export declare class Types {
  /**
   * Reads and validates a tools listing (`decisions.md` 6). Without one,
   * only terms without Named types can be used (`"Int"`, `{ List: "Text" }`).
   * A refusal throws a `FlowError` naming the path and the rule.
   */
  constructor(listing?: string | Uint8Array)
  /** The identities of the listing's Tools, in listing order. */
  get tools(): Array<string>
  /** The Tool's fingerprint: `sha256:` and the hex SHA-256 of its canonical signature. */
  fingerprint(tool: string): string
  /**
   * The Tool's signature: the describe form (docs and versions kept), or
   * with `stripped` the canonical one that the fingerprint hashes.
   */
  signature(tool: string, stripped?: boolean | undefined | null): JsonValue
  /** The `describe` result a process serving every Tool of the listing gives. */
  describe(): JsonValue
  /** The JSON Schema (2020-12) of a type term, with its `$defs`. */
  schema(term: TypeTerm | string): JsonValue
  /**
   * Checks a generic call's views against the Tool (`host-boundary.md`,
   * "Type descriptions"): `types` against the served TypeSpec and `schema`
   * against its success type, as a Tool process does before running the
   * author's code. A refusal throws a `FlowError`.
   */
  checkCallView(tool: string, types: string, schema: string): void
  /**
   * A codec for values of a type term (`"Int"`, `{ List: "Decimal" }`,
   * `{ Named: { declaration: "1", args: [] } }`), resolved in this listing.
   */
  codec(term: TypeTerm | string): Codec
}

/**
 * The canonical text of any JSON text (`host-boundary.md`, "The canonical
 * form"): read under the default limits, refusing what Flow refuses
 * (duplicate keys, lone surrogates, numbers past 4,300 digits, nesting past
 * 128), then written with sorted keys, no whitespace and plain numbers.
 * A refusal throws a `FlowError` naming the path and the rule.
 */
export declare function canonicalize(text: string | Uint8Array, limits?: Limits): string

/** The canonical text of a Duration given in nanoseconds. */
export declare function durationFormat(nanoseconds: bigint): string

/** Nanoseconds of a Duration's text (`PT<seconds>S`). */
export declare function durationParse(text: string): bigint

/**
 * Runs flow-gen with `args` (the first is the program name, as in argv) and
 * returns its exit status. Output goes to the process's stdout and stderr.
 */
export declare function flowGen(args: Array<string>): number

/** The canonical text of an Instant given in nanoseconds since the epoch. */
export declare function instantFormat(nanoseconds: bigint): string

/** Nanoseconds since the epoch of an Instant's text (`decisions.md` 1). */
export declare function instantParse(text: string): bigint

/**
 * Reads JSON text under Flow's rules and returns its tape: `[ops, narrow,
 * wide, keys, int64s, shapes]`, which `lib/tape.js` turns into values. The
 * ops and int64s are written into `scratch` when they fit (the ArrayBuffer
 * under an earlier call's ops, which they overwrite). Use `parse` instead.
 */
export declare function parseTape(text: string | Uint8Array, limits?: Limits, scratch?: ArrayBuffer): [Int32Array, string, string, Int32Array, BigInt64Array, Int32Array]

/**
 * Called once by `lib/index.js` with the classes native code builds and
 * recognizes (`Decimal`, `Instant`, ...). Not for use by applications.
 */
export declare function register(classes: Record<string, unknown>): void

/** The canonical text of a tape written by `lib/tape.js`. Use `stringify`. */
export declare function stringifyTape(ops: Int32Array, text: string, limits?: Limits): string
