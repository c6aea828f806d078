'use strict'
// Decimal's arithmetic: exact add, sub, mul, neg, abs, compare, and div/round
// at an explicit scale and rounding mode, checked against Python's decimal
// module (an independent implementation, run as a subprocess) on random
// operands, plus the refusals: no guessed scale or mode, no inexact 'exact'.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const { Decimal } = require('../lib/index.js')

const ROUNDINGS = ['exact', 'half-even', 'half-up', 'half-down', 'up', 'down', 'ceiling', 'floor']

// The reference: each line {op, a, b, scale, rounding} answered with the
// canonical text of the result, or "RangeError" where there is none (a zero
// divisor; 'exact' with digits past the scale). A quotient is truncated at
// 400 digits and, when that was inexact, given a sticky final 1: no rounding
// boundary at the scale lies between the two, so every mode rounds both alike.
const REFERENCE = String.raw`
import decimal, json, sys
from decimal import Decimal as D
MODES = {"half-even": decimal.ROUND_HALF_EVEN, "half-up": decimal.ROUND_HALF_UP,
         "half-down": decimal.ROUND_HALF_DOWN, "up": decimal.ROUND_UP, "down": decimal.ROUND_DOWN,
         "ceiling": decimal.ROUND_CEILING, "floor": decimal.ROUND_FLOOR, "exact": decimal.ROUND_HALF_EVEN}
WIDE = decimal.Context(prec=2000, traps=[])
def canonical(d):
    if d.is_zero():
        return "0"
    return format(WIDE.normalize(d), "f")
def rounded(v, exact, scale, rounding):
    ctx = decimal.Context(prec=2000, rounding=MODES[rounding], traps=[])
    q = ctx.quantize(v, D(1).scaleb(-scale))
    if rounding == "exact" and (not exact or ctx.flags[decimal.Inexact]):
        return "RangeError"
    return canonical(q)
for line in sys.stdin:
    c = json.loads(line)
    a, b = D(c["a"]), D(c["b"])
    op = c["op"]
    if op in ("add", "sub", "mul"):
        out = canonical(getattr(WIDE, {"add": "add", "sub": "subtract", "mul": "multiply"}[op])(a, b))
    elif op == "neg":
        out = canonical(WIDE.minus(a))
    elif op == "abs":
        out = canonical(WIDE.abs(a))
    elif op == "compare":
        out = str(int(a.compare(b)))
    elif op == "round":
        out = rounded(a, True, c["scale"], c["rounding"])
    elif b.is_zero():
        out = "RangeError"
    else:
        ctx = decimal.Context(prec=400, rounding=decimal.ROUND_DOWN, traps=[])
        t = ctx.divide(a, b)
        exact = not ctx.flags[decimal.Inexact]
        if not exact:
            t = WIDE.add(t, D(1).copy_sign(t).scaleb(t.as_tuple().exponent - 1))
        out = rounded(t, exact, c["scale"], c["rounding"])
    print(out)
`

// A seeded generator, so that a failure is reproducible (xorshift64*).
function generator(seed) {
  let x = BigInt(seed) | 1n
  const mask = (1n << 64n) - 1n
  return (n) => {
    x ^= x >> 12n
    x ^= (x << 25n) & mask
    x ^= x >> 27n
    return Number(((x * 2685821657736338717n) & mask) % BigInt(n))
  }
}

function randomDecimal(next) {
  const digits = 1 + next(30)
  let text = String(1 + next(9))
  for (let i = 1; i < digits; i++) text += String(next(10))
  // Small coefficients and zero often: ties and exact quotients are the edges.
  const coefficient = next(8) === 0 ? BigInt(next(3)) : next(4) === 0 ? BigInt(next(20)) : BigInt(text)
  return new Decimal(next(2) === 0 ? -coefficient : coefficient, next(41) - 20)
}

function jsResult(c) {
  const a = Decimal.parse(c.a)
  try {
    switch (c.op) {
      case 'compare':
        return String(a.compare(c.b))
      case 'neg':
      case 'abs':
        return a[c.op]().toString()
      case 'round':
        return a.round(c.scale, c.rounding).toString()
      case 'div':
        return a.div(c.b, c.scale, c.rounding).toString()
      default:
        return a[c.op](c.b).toString()
    }
  } catch (e) {
    if (e instanceof RangeError) return 'RangeError'
    throw e
  }
}

test('add, sub, mul, neg, abs, compare, div and round agree with Python decimal on random operands', () => {
  const seed = Number(process.env.DECIMAL_SEED ?? 20261201)
  const next = generator(seed)
  const ops = ['add', 'sub', 'mul', 'neg', 'abs', 'compare', 'div', 'div', 'div', 'round', 'round']
  const cases = []
  for (let i = 0; i < 4000; i++) {
    const op = ops[next(ops.length)]
    cases.push({
      op,
      a: randomDecimal(next).toString(),
      b: randomDecimal(next).toString(),
      scale: next(30) - 5,
      rounding: ROUNDINGS[next(ROUNDINGS.length)],
    })
  }
  const reference = spawnSync('python3', ['-c', REFERENCE], {
    input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  })
  assert.equal(reference.status, 0, reference.stderr)
  const expected = reference.stdout.trimEnd().split('\n')
  assert.equal(expected.length, cases.length)
  let refusals = 0
  cases.forEach((c, i) => {
    if (expected[i] === 'RangeError') refusals++
    assert.equal(jsResult(c), expected[i], `seed ${seed}, case ${i}: ${JSON.stringify(c)}`)
  })
  // Both kinds of answer were exercised.
  assert.ok(refusals > 50 && refusals < cases.length / 2, `${refusals} refusals`)
})

test('the edges, by hand', () => {
  const d = Decimal.parse
  assert.equal(d('0.1').add('0.2').toString(), '0.3')
  assert.equal(d('123456789012345678901234567890.05').sub('0.07').toString(), '123456789012345678901234567889.98')
  assert.equal(d('1.5').mul('-2').toString(), '-3')
  assert.ok(d('1.50').add(0n).equals('1.5'))
  assert.equal(d('-0.5').abs().toString(), '0.5')
  assert.equal(d('0').neg().toString(), '0')
  assert.equal(d('1').div('3', 4, 'half-even').toString(), '0.3333')
  assert.equal(d('2').div('3', 0, 'half-even').toString(), '1')
  assert.equal(d('0.125').round(2, 'half-even').toString(), '0.12')
  assert.equal(d('0.135').round(2, 'half-even').toString(), '0.14')
  assert.equal(d('-0.125').round(2, 'half-up').toString(), '-0.13')
  assert.equal(d('-0.125').round(2, 'floor').toString(), '-0.13')
  assert.equal(d('-0.125').round(2, 'ceiling').toString(), '-0.12')
  assert.equal(d('1250').round(-2, 'half-even').toString(), '1200')
  assert.equal(d('1').div('8', 3, 'exact').toString(), '0.125')
})

test('div refuses to guess: scale and rounding are required, and exact means exact', () => {
  const one = Decimal.parse('1')
  assert.throws(() => one.div('3'), { name: 'TypeError', message: /the scale \(digits after the point\) must be a safe integer, not a undefined/ })
  assert.throws(() => one.div('3', 2), { name: 'TypeError', message: /the rounding mode must be one of 'exact', 'half-even'.*there is no default/ })
  assert.throws(() => one.div('3', 2, 'HALF_EVEN'), TypeError)
  assert.throws(() => one.div('3', 1.5, 'down'), TypeError)
  assert.throws(() => one.div('3', 2, 'exact'), { name: 'RangeError', message: /does not fit the scale exactly; pass a rounding mode/ })
  assert.throws(() => one.div('0', 2, 'down'), { name: 'RangeError', message: /1 \/ 0/ })
  assert.throws(() => one.round(0.5, 'down'), TypeError)
  // Never a float, here either.
  assert.throws(() => one.add(0.1), { name: 'TypeError', message: /binary float/ })
  assert.throws(() => one.add(Decimal.parse('1e-200000')), { name: 'RangeError', message: /exponents are 200000 apart/ })
})
