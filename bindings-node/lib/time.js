'use strict'
// Instant and Duration: integer nanoseconds as bigints, exact like Flow's.
// Parsing and canonical text are flow-core's (one rule for every toolkit).
const native = require('./native.js')
const { describe } = require('./decimal.js')

// decisions.md 1: plus or minus 8.64e21 ns for an Instant (the range of a
// JavaScript Date, and of Temporal), 1.728e22 ns in magnitude for a Duration.
const INSTANT_LIMIT = 8_640_000_000_000_000_000_000n
const DURATION_LIMIT = 17_280_000_000_000_000_000_000n
const NANOS_PER_MILLI = 1_000_000n

function nanosOf(what, nanos, limit) {
  if (typeof nanos !== 'bigint') {
    throw new TypeError(`${what}: nanoseconds must be a bigint, not ${describe(nanos)}`)
  }
  if (nanos > limit || nanos < -limit) {
    throw new RangeError(`${what}: ${nanos} ns is outside ±${limit} ns`)
  }
  return nanos
}

/** A point in time: nanoseconds since 1970-01-01T00:00:00Z, no leap seconds. */
class Instant {
  /** @param {bigint} epochNanoseconds */
  constructor(epochNanoseconds) {
    /** @readonly */
    this.epochNanoseconds = nanosOf('Instant', epochNanoseconds, INSTANT_LIMIT)
  }

  /** Parses RFC 3339 text as Flow decodes it ("2026-11-30T09:15:00.5+01:00"). */
  static parse(text) {
    return new Instant(native.instantParse(text))
  }

  /** The instant a Date stands for (every Date fits). */
  static fromDate(date) {
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      throw new TypeError(`Instant.fromDate: expected a valid Date, not ${describe(date)}`)
    }
    return new Instant(BigInt(date.getTime()) * NANOS_PER_MILLI)
  }

  /** Now, to the millisecond (what Date.now() knows). */
  static now() {
    return new Instant(BigInt(Date.now()) * NANOS_PER_MILLI)
  }

  /**
   * The same instant as a Date. Throws a RangeError when it has digits below
   * the millisecond, which a Date cannot hold.
   */
  toDate() {
    if (this.epochNanoseconds % NANOS_PER_MILLI !== 0n) {
      throw new RangeError(`Instant ${this.toString()} has digits below the millisecond; a Date cannot hold it`)
    }
    return new Date(Number(this.epochNanoseconds / NANOS_PER_MILLI))
  }

  /** Canonical text: UTC, Z, the fewest exact fraction digits. */
  toString() {
    return native.instantFormat(this.epochNanoseconds)
  }

  toJSON() {
    return this.toString()
  }

  valueOf() {
    throw new TypeError('an Instant has no primitive value: use compare(), equals() or epochNanoseconds')
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `Instant(${this.toString()})`
  }

  equals(other) {
    return other instanceof Instant && other.epochNanoseconds === this.epochNanoseconds
  }

  compare(other) {
    if (!(other instanceof Instant)) throw new TypeError(`Instant.compare: expected an Instant, not ${describe(other)}`)
    return this.epochNanoseconds < other.epochNanoseconds ? -1 : this.epochNanoseconds > other.epochNanoseconds ? 1 : 0
  }

  static compare(a, b) {
    return a.compare(b)
  }
}

/** A length of time in nanoseconds, possibly negative. */
class Duration {
  /** @param {bigint} nanoseconds */
  constructor(nanoseconds) {
    /** @readonly */
    this.nanoseconds = nanosOf('Duration', nanoseconds, DURATION_LIMIT)
  }

  /** Parses Flow's form, `PT<seconds>S` ("PT90S", "PT0.25S", "PT-5S"). */
  static parse(text) {
    return new Duration(native.durationParse(text))
  }

  /** Milliseconds, as a safe integer number or a bigint. */
  static fromMilliseconds(ms) {
    if (typeof ms === 'number' && !Number.isSafeInteger(ms)) {
      throw new RangeError(`Duration.fromMilliseconds: ${ms} is not a safe integer`)
    }
    if (typeof ms !== 'number' && typeof ms !== 'bigint') {
      throw new TypeError(`Duration.fromMilliseconds: expected an integer, not ${describe(ms)}`)
    }
    return new Duration(BigInt(ms) * NANOS_PER_MILLI)
  }

  /** Whole seconds, as a safe integer number or a bigint. */
  static fromSeconds(s) {
    if (typeof s === 'number' && !Number.isSafeInteger(s)) {
      throw new RangeError(`Duration.fromSeconds: ${s} is not a safe integer`)
    }
    if (typeof s !== 'number' && typeof s !== 'bigint') {
      throw new TypeError(`Duration.fromSeconds: expected an integer, not ${describe(s)}`)
    }
    return new Duration(BigInt(s) * 1_000_000_000n)
  }

  /**
   * Milliseconds as a number (for setTimeout). Throws a RangeError when the
   * duration has digits below the millisecond or is past a safe integer.
   */
  toMilliseconds() {
    if (this.nanoseconds % NANOS_PER_MILLI !== 0n) {
      throw new RangeError(`Duration ${this.toString()} has digits below the millisecond`)
    }
    const ms = this.nanoseconds / NANOS_PER_MILLI
    if (ms > BigInt(Number.MAX_SAFE_INTEGER) || ms < -BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`Duration ${this.toString()} is past a safe integer of milliseconds`)
    }
    return Number(ms)
  }

  /** Canonical text: `PT<seconds>S`, the fewest exact fraction digits. */
  toString() {
    return native.durationFormat(this.nanoseconds)
  }

  toJSON() {
    return this.toString()
  }

  valueOf() {
    throw new TypeError('a Duration has no primitive value: use compare(), equals() or nanoseconds')
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `Duration(${this.toString()})`
  }

  equals(other) {
    return other instanceof Duration && other.nanoseconds === this.nanoseconds
  }

  compare(other) {
    if (!(other instanceof Duration)) throw new TypeError(`Duration.compare: expected a Duration, not ${describe(other)}`)
    return this.nanoseconds < other.nanoseconds ? -1 : this.nanoseconds > other.nanoseconds ? 1 : 0
  }

  static compare(a, b) {
    return a.compare(b)
  }
}

module.exports = { Instant, Duration }
