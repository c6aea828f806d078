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

// The most digits an exponent alignment may add. Aligning 1e-9000000 with 1
// would build a nine-million-digit bigint; no value that crosses the
// boundary (at most 4,300 digits) comes near this.
const MAX_ALIGN_DIGITS = 100000

// The rounding modes div and round take: how the digits past the scale are
// dropped. 'exact' drops none: a result that needs them is a RangeError.
const ROUNDINGS = ['exact', 'half-even', 'half-up', 'half-down', 'up', 'down', 'ceiling', 'floor']

/** 10^n as a bigint, refusing an alignment past MAX_ALIGN_DIGITS. */
function pow10(n, what) {
  if (n > MAX_ALIGN_DIGITS) {
    throw new RangeError(`Decimal.${what}: the operands' exponents are ${n} apart, past ${MAX_ALIGN_DIGITS} digits`)
  }
  return 10n ** BigInt(n)
}

/** Both coefficients at the smaller exponent, exactly. */
function aligned(a, b, what) {
  const e = Math.min(a.exponent, b.exponent)
  return [a.coefficient * pow10(a.exponent - e, what), b.coefficient * pow10(b.exponent - e, what), e]
}

/**
 * The integer num / den (den > 0) rounded by `rounding`; 'exact' throws
 * unless it divides evenly.
 */
function roundedQuotient(num, den, rounding, what) {
  const q = num / den // truncated toward zero
  const r = num % den // the sign of num
  if (r === 0n) return q
  const negative = num < 0n
  const away = negative ? q - 1n : q + 1n
  const twice = (r < 0n ? -r : r) * 2n
  const half = twice === den ? 0 : twice > den ? 1 : -1
  switch (rounding) {
    case 'exact':
      throw new RangeError(`Decimal.${what}: the result does not fit the scale exactly; pass a rounding mode ('half-even', 'down', ...) to say how to round`)
    case 'down':
      return q
    case 'up':
      return away
    case 'ceiling':
      return negative ? q : away
    case 'floor':
      return negative ? away : q
    case 'half-up':
      return half >= 0 ? away : q
    case 'half-down':
      return half > 0 ? away : q
    default: // 'half-even'
      return half > 0 || (half === 0 && q % 2n !== 0n) ? away : q
  }
}

/** Checks div's and round's scale and rounding, which have no defaults. */
function checkScaleAndRounding(scale, rounding, what) {
  if (!Number.isSafeInteger(scale)) {
    throw new TypeError(`Decimal.${what}: the scale (digits after the point) must be a safe integer, not ${describe(scale)}`)
  }
  if (!ROUNDINGS.includes(rounding)) {
    throw new TypeError(
      `Decimal.${what}: the rounding mode must be one of ${ROUNDINGS.map((r) => `'${r}'`).join(', ')}, not ${describe(rounding)}; there is no default, so that no result is rounded unasked`,
    )
  }
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
   * or add their texts. Use `compare`, `equals`, `add`, `sub`, `mul`, `div` and `toString`.
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
    // Both at the smaller exponent; exact, as bigints are unbounded.
    const [a, b] = aligned(this, Decimal.from(other), 'compare')
    return a < b ? -1 : a > b ? 1 : 0
  }

  /** this + other, exactly. */
  add(other) {
    const [a, b, e] = aligned(this, Decimal.from(other), 'add')
    return new Decimal(a + b, e)
  }

  /** this - other, exactly. */
  sub(other) {
    const [a, b, e] = aligned(this, Decimal.from(other), 'sub')
    return new Decimal(a - b, e)
  }

  /** this × other, exactly. */
  mul(other) {
    const o = Decimal.from(other)
    const exponent = this.exponent + o.exponent
    if (!Number.isSafeInteger(exponent)) {
      throw new RangeError(`Decimal.mul: the product's exponent is past a safe integer`)
    }
    return new Decimal(this.coefficient * o.coefficient, exponent)
  }

  /** -this. */
  neg() {
    return new Decimal(-this.coefficient, this.exponent, TRUSTED)
  }

  /** |this|. */
  abs() {
    return this.coefficient < 0n ? this.neg() : this
  }

  /**
   * this / divisor with `scale` digits after the point, rounded by `rounding`
   * ('half-even', 'half-up', 'half-down', 'up', 'down', 'ceiling', 'floor';
   * 'exact' throws a RangeError unless the quotient fits the scale). Both are
   * required: a quotient such as 1/3 has no exact decimal, so how many digits
   * and which way to round are the caller's to say. A zero divisor is a
   * RangeError.
   */
  div(divisor, scale, rounding) {
    checkScaleAndRounding(scale, rounding, 'div')
    const d = Decimal.from(divisor)
    if (d.coefficient === 0n) throw new RangeError(`Decimal.div: ${this.toString()} / 0`)
    // q × 10^-scale = (ca × 10^ea) / (cb × 10^eb), so q = ca × 10^(ea+scale-eb) / cb.
    const shift = this.exponent + scale - d.exponent
    let num = shift >= 0 ? this.coefficient * pow10(shift, 'div') : this.coefficient
    let den = shift >= 0 ? d.coefficient : d.coefficient * pow10(-shift, 'div')
    if (den < 0n) {
      num = -num
      den = -den
    }
    return new Decimal(roundedQuotient(num, den, rounding, 'div'), -scale)
  }

  /** This value with `scale` digits after the point, rounded by `rounding` (as `div` takes them). */
  round(scale, rounding) {
    checkScaleAndRounding(scale, rounding, 'round')
    if (-this.exponent <= scale) return this
    const den = pow10(-this.exponent - scale, 'round')
    return new Decimal(roundedQuotient(this.coefficient, den, rounding, 'round'), -scale)
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
