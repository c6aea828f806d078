'use strict'
// Decimal: an exact decimal number, coefficient × 10^exponent, never a float.
// Kept normalized (no trailing zeros in the coefficient; zero is 0 × 10^0) so
// that equal values have equal fields, as Flow's Decimal does (1.50 is 1.5).

// The JSON number grammar (RFC 8259), which is also what decimal.js and big.js
// print: "1.5", "-0.001", "1e+21", "1.5e-7".
const NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/

function normalize(coefficient, exponent) {
  if (coefficient === 0n) return [0n, 0]
  while (coefficient % 10n === 0n) {
    coefficient /= 10n
    exponent += 1
  }
  return [coefficient, exponent]
}

// Passed by native code, which builds Decimals already normalized; nothing
// outside this package holds it.
const TRUSTED = Symbol('trusted')

class Decimal {
  /**
   * coefficient × 10^exponent. `exponent` is a safe integer.
   * @param {bigint} coefficient
   * @param {number} [exponent]
   */
  constructor(coefficient, exponent = 0, trusted = undefined) {
    if (trusted === TRUSTED) {
      this.coefficient = coefficient
      this.exponent = exponent
      return
    }
    if (typeof coefficient !== 'bigint') {
      throw new TypeError(`Decimal: the coefficient must be a bigint, not ${describe(coefficient)}`)
    }
    if (!Number.isSafeInteger(exponent)) {
      throw new TypeError(`Decimal: the exponent must be a safe integer, not ${describe(exponent)}`)
    }
    const [c, e] = normalize(coefficient, exponent)
    /** @readonly */
    this.coefficient = c
    /** @readonly */
    this.exponent = e
  }

  /** Parses a JSON number's text exactly ("1.50", "-2e-3", "1e+21"). */
  static parse(text) {
    if (typeof text !== 'string') {
      throw new TypeError(`Decimal.parse: expected a string, not ${describe(text)}`)
    }
    const m = NUMBER.exec(text)
    if (m === null) {
      throw new SyntaxError(`Decimal.parse: ${JSON.stringify(text)} is not a decimal number (JSON number syntax)`)
    }
    const [, sign, whole, fraction = '', exp = '0'] = m
    const exponent = Number(exp) - fraction.length
    if (!Number.isSafeInteger(exponent)) {
      throw new RangeError(`Decimal.parse: the exponent of ${JSON.stringify(text)} is too large`)
    }
    const magnitude = BigInt(whole + fraction)
    return new Decimal(sign === '-' ? -magnitude : magnitude, exponent)
  }

  /**
   * A Decimal from a Decimal, a bigint or a string (decimal.js and big.js
   * values convert through their `toString()`). A JavaScript number is refused:
   * it is a binary float, and which decimal it meant is a guess.
   */
  static from(value) {
    if (value instanceof Decimal) return value
    if (typeof value === 'bigint') return new Decimal(value, 0)
    if (typeof value === 'string') return Decimal.parse(value)
    if (typeof value === 'number') {
      throw new TypeError(
        `Decimal.from(${value}): a number is a binary float; pass a string ("${value}") or a bigint to say which decimal you mean`,
      )
    }
    throw new TypeError(`Decimal.from: expected a Decimal, bigint or string, not ${describe(value)}`)
  }

  /** Whether the value is a whole number. */
  isInteger() {
    return this.exponent >= 0
  }

  /** The value as a bigint; throws a RangeError when it is not whole. */
  toBigInt() {
    if (this.exponent < 0) {
      throw new RangeError(`Decimal ${this.toString()} is not a whole number`)
    }
    return this.coefficient * 10n ** BigInt(this.exponent)
  }

  /** Canonical text: plain decimal, no exponent, no superfluous zeros ("1.5", "-0.001", "1000"). */
  toString() {
    if (this.coefficient === 0n) return '0'
    const negative = this.coefficient < 0n
    const digits = (negative ? -this.coefficient : this.coefficient).toString()
    let text
    if (this.exponent >= 0) {
      text = digits + '0'.repeat(this.exponent)
    } else {
      const fraction = -this.exponent
      text =
        digits.length > fraction
          ? digits.slice(0, digits.length - fraction) + '.' + digits.slice(digits.length - fraction)
          : '0.' + '0'.repeat(fraction - digits.length) + digits
    }
    return negative ? '-' + text : text
  }

  /** The canonical text: `JSON.stringify` writes a Decimal as a string. */
  toJSON() {
    return this.toString()
  }

  /**
   * Refuses to become a primitive: `a < b` or `a + 1` on Decimals would compare
   * or add their texts. Use `compare`, `equals` and `toString`.
   */
  valueOf() {
    throw new TypeError('a Decimal has no primitive value: use compare(), equals() or toString()')
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `Decimal(${this.toString()})`
  }

  /** Whether both are the same number (1.50 equals 1.5). */
  equals(other) {
    const o = Decimal.from(other)
    return this.coefficient === o.coefficient && this.exponent === o.exponent
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than `other`. */
  compare(other) {
    const o = Decimal.from(other)
    // Bring both to the smaller exponent; exact, as bigints are unbounded.
    const e = Math.min(this.exponent, o.exponent)
    const a = this.coefficient * 10n ** BigInt(this.exponent - e)
    const b = o.coefficient * 10n ** BigInt(o.exponent - e)
    return a < b ? -1 : a > b ? 1 : 0
  }

  /** Orders Decimals numerically: `decimals.sort(Decimal.compare)`. */
  static compare(a, b) {
    return Decimal.from(a).compare(b)
  }
}

function describe(value) {
  if (value === null) return 'null'
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`
  return `a ${typeof value} (${String(value)})`
}

module.exports = { Decimal, describe, TRUSTED }
