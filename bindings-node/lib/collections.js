'use strict'
// Readonly collections with Flow's equality (decisions.md 3): a Set<T> whose T
// is not a string, and a Dict<K, V> whose K is not Text. A JavaScript Set or
// Map compares objects by reference, so two equal records, Decimals or
// bigint pairs would be two members; these compare by value.
//
// Equality goes by a structural key (flowKey) that is the same for equal
// values of one type and different for different ones. Order: collections
// decoded from the wire iterate in Flow's ascending order; ones built in
// JavaScript iterate in insertion order, and encoding sorts them by the type's
// order (which needs the type: enum constructor order is declaration order).
const { Decimal } = require('./decimal.js')
const { Instant, Duration } = require('./time.js')
const { HostToken } = require('./host-token.js')
const { Some } = require('./option.js')

function flowKey(value) {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'bigint':
      return 'n' + value.toString()
    case 'boolean':
      return value ? 't' : 'f'
    case 'undefined':
      return 'u'
    case 'object':
      break
    default:
      throw new TypeError(`no Flow value is a ${typeof value}`)
  }
  if (value === null) return 'z'
  if (value instanceof Decimal) {
    // A whole Decimal keys like the bigint of the same value: in json.Value
    // they are one number.
    return value.exponent >= 0 ? 'n' + value.toBigInt().toString() : 'd' + value.toString()
  }
  if (Array.isArray(value)) return '[' + value.map(flowKey).join(',') + ']'
  if (value instanceof Uint8Array) return 'b' + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')
  if (value instanceof Instant) return 'I' + value.epochNanoseconds
  if (value instanceof Duration) return 'D' + value.nanoseconds
  if (value instanceof Some) return 'S(' + flowKey(value.value) + ')'
  if (value instanceof HostToken) return 'H' + value.canonical
  if (value instanceof FlowSet) return 'F{' + [...value._byKey.keys()].sort().join(',') + '}'
  if (value instanceof FlowMap) {
    const keys = [...value._byKey.entries()].map(([k, [, v]]) => k + ':' + flowKey(v))
    return 'M{' + keys.sort().join(',') + '}'
  }
  if (value instanceof Set) return 'F{' + [...value].map(flowKey).sort().join(',') + '}'
  if (value instanceof Map) {
    const keys = [...value.entries()].map(([k, v]) => flowKey(k) + ':' + flowKey(v))
    return 'M{' + keys.sort().join(',') + '}'
  }
  // A record, an enum value or a JSON object: members by name, absent and
  // undefined alike (an Option field holding None).
  const names = Object.keys(value).filter((k) => value[k] !== undefined).sort()
  return '{' + names.map((k) => JSON.stringify(k) + ':' + flowKey(value[k])).join(',') + '}'
}

/** A readonly set under Flow's equality. */
class FlowSet {
  /** @param {Iterable<unknown>} [values] Duplicates (by Flow equality) are kept once. */
  constructor(values = []) {
    /** @internal */
    this._byKey = new Map()
    for (const v of values) {
      const k = flowKey(v)
      if (!this._byKey.has(k)) this._byKey.set(k, v)
    }
  }

  get size() {
    return this._byKey.size
  }

  has(value) {
    return this._byKey.has(flowKey(value))
  }

  values() {
    return this._byKey.values()
  }

  keys() {
    return this._byKey.values()
  }

  *entries() {
    for (const v of this._byKey.values()) yield [v, v]
  }

  [Symbol.iterator]() {
    return this._byKey.values()
  }

  forEach(callback, thisArg) {
    for (const v of this._byKey.values()) callback.call(thisArg, v, v, this)
  }

  /** The members in iteration order. */
  toArray() {
    return [...this._byKey.values()]
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return `FlowSet(${inspect(this.toArray(), options)})`
  }
}

/** A readonly map under Flow's key equality. */
class FlowMap {
  /** @param {Iterable<readonly [unknown, unknown]>} [entries] A repeated key (by Flow equality) is refused. */
  constructor(entries = []) {
    /** @internal */
    this._byKey = new Map()
    for (const [k, v] of entries) {
      const key = flowKey(k)
      if (this._byKey.has(key)) throw new RangeError(`FlowMap: the key ${key} is given twice`)
      this._byKey.set(key, [k, v])
    }
  }

  get size() {
    return this._byKey.size
  }

  has(key) {
    return this._byKey.has(flowKey(key))
  }

  get(key) {
    const entry = this._byKey.get(flowKey(key))
    return entry === undefined ? undefined : entry[1]
  }

  *keys() {
    for (const [k] of this._byKey.values()) yield k
  }

  *values() {
    for (const [, v] of this._byKey.values()) yield v
  }

  entries() {
    return this._byKey.values()
  }

  [Symbol.iterator]() {
    return this._byKey.values()
  }

  forEach(callback, thisArg) {
    for (const [k, v] of this._byKey.values()) callback.call(thisArg, v, k, this)
  }

  /** The entries in iteration order, as [key, value] pairs. */
  toArray() {
    return [...this._byKey.values()]
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return `FlowMap(${inspect(this.toArray(), options)})`
  }
}

module.exports = { FlowSet, FlowMap, flowKey }
