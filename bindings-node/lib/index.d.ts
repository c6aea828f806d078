// @flow/toolkit: Flow's host boundary for Node.js.
//
// Every Flow type has one JavaScript form, and nothing exact ever passes
// through a float:
//
// | Flow                         | TypeScript                                        |
// |------------------------------|---------------------------------------------------|
// | Int                          | bigint                                            |
// | Decimal                      | Decimal                                           |
// | Text, Bool, Unit             | string, boolean, null                             |
// | Bytes                        | Uint8Array (decoded as a Buffer)                  |
// | Instant, Duration            | Instant, Duration (bigint nanoseconds)            |
// | List<T>, (A, B)              | readonly T[], readonly [A, B]                     |
// | Set<T>                       | ReadonlySet<T> (FlowSet<T> unless T is Text/Int/Bool/Unit) |
// | Dict<K, V>                   | ReadonlyMap<K, V> (FlowMap<K, V> unless K is Text/Int/Bool/Unit) |
// | Option<T>                    | Option<T>: T | undefined, or Some<T> | undefined when T is an Option |
// | record                       | a readonly interface, fields by their Flow names  |
// | enum                         | { case: "Ctor" } | { case: "Ctor"; value: P }     |
// | json.Value                   | JsonValue (bigint for whole numbers, Decimal else) |
// | host token                   | HostToken                                         |

/// <reference types="node" />

/** JSON with exact numbers: whole ones as `bigint`, others as `Decimal`. */
export type JsonValue = null | boolean | bigint | Decimal | string | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** A type term of a type description (`host-boundary.md`, "Type descriptions"). */
export type TypeTerm =
  | 'Int'
  | 'Decimal'
  | 'Bool'
  | 'Text'
  | 'Bytes'
  | 'Duration'
  | 'Instant'
  | 'Unit'
  | 'Never'
  | 'json.Value'
  | { readonly List: TypeTerm }
  | { readonly Set: TypeTerm }
  | { readonly Option: TypeTerm }
  | { readonly Task: TypeTerm }
  | { readonly Dict: readonly [TypeTerm, TypeTerm] }
  | { readonly Tuple: readonly TypeTerm[] }
  | { readonly Function: { readonly params: readonly TypeTerm[]; readonly result: TypeTerm } }
  | { readonly Named: { readonly declaration: string; readonly args: readonly TypeTerm[] } }
  | { readonly Param: { readonly owner: string; readonly index: number } }

/** Decoding limits (`decisions.md` 2); each defaults: 16 MiB, depth 128, 4,300 digits. */
export interface Limits {
  readonly maxBytes?: number
  readonly maxDepth?: number
  readonly maxDigits?: number
}

/** An exact decimal: `coefficient × 10^exponent`, kept normalized (1.50 is 1.5). Never a float. */
export declare class Decimal {
  /** The coefficient, without trailing zeros (0 for zero). */
  readonly coefficient: bigint
  /** The power of ten; a safe integer. */
  readonly exponent: number
  constructor(coefficient: bigint, exponent?: number)
  /** Parses a JSON number's text exactly: "1.50", "-2e-3", "1e+21" (what decimal.js and big.js print). */
  static parse(text: string): Decimal
  /** From a Decimal, a bigint, or a string; a `number` is refused (it is a binary float). */
  static from(value: Decimal | bigint | string): Decimal
  /** Numeric order, for `Array.prototype.sort`. */
  static compare(a: Decimal | bigint | string, b: Decimal | bigint | string): -1 | 0 | 1
  isInteger(): boolean
  /** The value as a bigint; throws a RangeError when it is not whole. */
  toBigInt(): bigint
  /** Canonical text: plain decimal, no exponent ("1.5", "-0.001", "1000"). */
  toString(): string
  toJSON(): string
  /** Throws: a Decimal has no primitive value (`<` and `+` would act on text). */
  valueOf(): never
  equals(other: Decimal | bigint | string): boolean
  compare(other: Decimal | bigint | string): -1 | 0 | 1
  /** this + other, exactly. */
  add(other: Decimal | bigint | string): Decimal
  /** this - other, exactly. */
  sub(other: Decimal | bigint | string): Decimal
  /** this × other, exactly. */
  mul(other: Decimal | bigint | string): Decimal
  neg(): Decimal
  abs(): Decimal
  /**
   * this / divisor with `scale` digits after the point, rounded by `rounding`;
   * both required ('exact' throws a RangeError unless the quotient fits). A
   * zero divisor is a RangeError.
   */
  div(divisor: Decimal | bigint | string, scale: number, rounding: Rounding): Decimal
  /** This value with `scale` digits after the point, rounded by `rounding`. */
  round(scale: number, rounding: Rounding): Decimal
}

/**
 * How `Decimal.div` and `Decimal.round` drop the digits past the scale:
 * 'exact' drops none (a RangeError when some are not zero); 'half-even' to
 * the nearest, a tie to the even digit; 'half-up' / 'half-down' a tie away
 * from / towards zero; 'up' / 'down' away from / towards zero; 'ceiling' /
 * 'floor' towards +∞ / -∞.
 */
export type Rounding = 'exact' | 'half-even' | 'half-up' | 'half-down' | 'up' | 'down' | 'ceiling' | 'floor'

/** A point in time: nanoseconds since 1970-01-01T00:00:00Z, within ±8.64e21 ns. */
export declare class Instant {
  readonly epochNanoseconds: bigint
  constructor(epochNanoseconds: bigint)
  /** RFC 3339 text as Flow decodes it ("2026-11-30T09:15:00.5+01:00"). */
  static parse(text: string): Instant
  /** The instant of a Date (every valid Date fits). */
  static fromDate(date: Date): Instant
  /** Now, to the millisecond. */
  static now(): Instant
  static compare(a: Instant, b: Instant): -1 | 0 | 1
  /** The same instant as a Date; throws a RangeError when it has digits below the millisecond. */
  toDate(): Date
  /** Canonical text: UTC, Z, the fewest exact fraction digits. */
  toString(): string
  toJSON(): string
  valueOf(): never
  equals(other: unknown): boolean
  compare(other: Instant): -1 | 0 | 1
}

/** A length of time in nanoseconds, within ±1.728e22 ns. */
export declare class Duration {
  readonly nanoseconds: bigint
  constructor(nanoseconds: bigint)
  /** Flow's form, `PT<seconds>S` ("PT90S", "PT0.25S", "PT-5S"). */
  static parse(text: string): Duration
  static fromMilliseconds(ms: number | bigint): Duration
  static fromSeconds(seconds: number | bigint): Duration
  static compare(a: Duration, b: Duration): -1 | 0 | 1
  /** Milliseconds as a number; throws a RangeError below the millisecond or past a safe integer. */
  toMilliseconds(): number
  /** Canonical text, `PT<seconds>S`. */
  toString(): string
  toJSON(): string
  valueOf(): never
  equals(other: unknown): boolean
  compare(other: Duration): -1 | 0 | 1
}

/** A host token: JSON the host chose, handed back unchanged. Compare nothing about it. */
export declare class HostToken {
  /** Its canonical JSON text. */
  readonly canonical: string
  /** A token from JSON text (for tests and fakes; real ones come in a call's args). */
  constructor(canonical: string)
  toString(): string
  toJSON(): string
}

/** Some(value), spelled out where `undefined` alone could not tell None from Some(None). */
export declare class Some<T> {
  readonly value: T
  constructor(value: T)
}

/**
 * Option<T>: `undefined` is None and the value itself is Some, unless T can
 * itself be undefined (T is an Option): then Some is `new Some(value)`, so
 * `Option<Option<bigint>>` keeps None, Some(None) and Some(Some(5n)) apart.
 */
export type Option<T> = undefined extends T ? Some<T> | undefined : T | undefined

/**
 * A readonly set under Flow's equality (`decisions.md` 3): two equal records,
 * Decimals or tuples are one member. Decoded sets iterate in Flow's order;
 * encoding sorts.
 */
export declare class FlowSet<T> implements ReadonlySet<T> {
  /** Members equal by Flow's equality are kept once. */
  constructor(values?: Iterable<T>)
  readonly size: number
  has(value: T): boolean
  values(): SetIterator<T>
  keys(): SetIterator<T>
  entries(): SetIterator<[T, T]>
  [Symbol.iterator](): SetIterator<T>
  forEach(callback: (value: T, value2: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void
  toArray(): T[]
}

/** A readonly map under Flow's key equality. */
export declare class FlowMap<K, V> implements ReadonlyMap<K, V> {
  /** Refuses a key given twice (by Flow's equality). */
  constructor(entries?: Iterable<readonly [K, V]>)
  readonly size: number
  has(key: K): boolean
  get(key: K): V | undefined
  keys(): MapIterator<K>
  values(): MapIterator<V>
  entries(): MapIterator<[K, V]>
  [Symbol.iterator](): MapIterator<[K, V]>
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void
  toArray(): [K, V][]
}

/** The structural key FlowSet and FlowMap compare by: equal for equal values of one type. */
export declare function flowKey(value: unknown): string

/**
 * A refusal by flow-core. `path` is a JSON path (`$.days[3].high_c`), `rule`
 * a stable code shared with the Rust and Python toolkits (`type`,
 * `duplicate-key`, `not-whole`, `encode`, ...).
 */
export declare class FlowError extends Error {
  readonly path: string
  readonly rule: string
  readonly detail: string
}

/**
 * Thrown by a handler to end its call with the Tool's declared error; the
 * call is answered Failed. A thrown object that is not an `Error` and is of
 * the declared error type (`throw { case: "RateLimited" }`) is answered
 * Failed too (a thrown primitive never is), but TypeScript does not check
 * what is thrown: `Failed<E>` is the checked form. Anything else a handler throws is answered Unknown.
 */
export declare class Failed<E = unknown> extends Error {
  readonly error: E
  constructor(error: E, options?: ErrorOptions)
}

/** The reason a handler's `signal` is aborted with when the host cancels the call. */
export declare class CancelledError extends Error {}

/** The canonical text of any JSON text. Throws a FlowError on what Flow refuses. */
export declare function canonicalize(text: string | Uint8Array, limits?: Limits): string
/** Reads JSON text exactly: whole numbers as bigint, others as Decimal; Flow's JSON rules. */
export declare function parse(text: string | Uint8Array, limits?: Limits): JsonValue
/** The canonical text of a JSON value (a `number` or `undefined` anywhere is refused). */
export declare function stringify(value: JsonValue, limits?: Limits): string

/** Decodes and encodes values of one type (`T` is the type you declare it to be). */
export interface Codec<T = unknown> {
  /** The type term, as canonical JSON text. */
  readonly type: string
  /** Decodes JSON text at this type; throws a FlowError naming the path and rule. */
  decode(text: string | Uint8Array, limits?: Limits): T
  /** The canonical text of a value; throws a FlowError naming the path when it is not of the type. */
  encode(value: T): string
  /** A value of this type from its JSON. */
  fromJson(json: JsonValue): T
  /** The JSON of a value of this type. */
  toJson(value: T): JsonValue
  /** Flow's order: negative, zero or positive. */
  compare(a: T, b: T): number
  /** Flow's equality. */
  equals(a: T, b: T): boolean
}
/** The codec class, for `instanceof`; codecs come from `Types.codec` and generic call contexts. */
export declare const Codec: { readonly prototype: Codec }

/** A tools listing's types: fingerprints, signatures, schemas and codecs. */
export declare class Types {
  /** Reads and validates a tools listing; without one, terms without Named types only. */
  constructor(listing?: string | Uint8Array)
  /** The identities of the listing's Tools. */
  readonly tools: string[]
  fingerprint(tool: string): string
  /** The describe-form signature, or with `stripped` the canonical one the fingerprint hashes. */
  signature(tool: string, stripped?: boolean): JsonValue
  /** The `describe` result for every Tool of the listing. */
  describe(): JsonValue
  /** The JSON Schema of a type term. */
  schema(term: TypeTerm | string): JsonValue
  /** Checks a generic call's types view and schema against the Tool, as a Tool process does; throws a FlowError. */
  checkCallView(tool: string, types: string, schema: string): void
  /** A codec for a type term resolved in this listing. */
  codec<T = unknown>(term: TypeTerm | string): Codec<T>
}

/** What every call's handler gets after its arguments. */
export interface CallContext {
  /** Aborted (with a CancelledError) when the host cancels the call. */
  readonly signal: AbortSignal
  /** The host's run id and the call's history id: the call's only correlation key. */
  readonly run: string
  readonly call: string
  /** The Tool's identity. */
  readonly tool: string
}

/** A generic Tool's call context (`host-boundary.md`, "Toolkits"). */
export interface GenericCallContext extends CallContext {
  /** The call's validated types view: bindings, params, ok, err, declarations. */
  readonly types: JsonValue
  /** The success type's JSON Schema. */
  readonly schema: JsonValue
  /** Codecs for the concrete roots, and for each type parameter's binding by name. */
  readonly codecs: {
    readonly params: readonly Codec[]
    readonly ok: Codec
    readonly err: Codec
    readonly bindings: { readonly [name: string]: Codec }
  }
}

/** What flow-gen embeds in a generated package's metadata. */
export interface ServedMetadata {
  /** The tools listing as JSON text, in any formatting: the runtime reads it exactly. */
  readonly listing: string
  /** JSON text of the served entries, `[{tool, fingerprint, signature}]`, in handler order. */
  readonly tools: string
}

/** A handler: the Tool's arguments, then its context; resolves to the result. */
export type Handler = (...args: any[]) => Promise<unknown>

export interface ServeOptions {
  /** Where the runtime's own lines go (default: stderr). */
  log?: (line: string) => void
  /**
   * The process's arguments (default: `process.argv.slice(2)`): none speaks
   * the Flow Tool process protocol, `--mcp` serves the Tools to MCP clients,
   * anything else is a usage error (exit status 2).
   */
  args?: readonly string[]
}

/**
 * Serves the Tools on stdin and stdout until stdin ends and every running
 * call has replied, speaking the Flow Tool process protocol, or MCP with
 * `--mcp` on the command line. From the call on, stdout belongs to the
 * protocol: fd 1 is pointed at stderr, so `console.log` goes there.
 */
export declare function serve(metadata: ServedMetadata, handlers: readonly Handler[], options?: ServeOptions): Promise<void>
