'use strict'
// Builds JSON values from the tape native code writes (src/tape.rs says its
// format): one pass, no Node-API call per value.
const { Decimal, TRUSTED } = require('./decimal.js')
const { Instant, Duration } = require('./time.js')
const { HostToken } = require('./host-token.js')
const { Some } = require('./option.js')
const { FlowSet, FlowMap } = require('./collections.js')

function fromTape(ops, text, keyTable, int64s) {
  let w = 0
  const keys = new Array(keyTable.length / 2)
  for (let k = 0; k < keys.length; k++) keys[k] = text.slice(keyTable[2 * k], keyTable[2 * k] + keyTable[2 * k + 1])
  let i = 0
  function value() {
    switch (ops[i++]) {
      case 0:
        return null
      case 1:
        return false
      case 2:
        return true
      case 3: {
        const start = ops[i++]
        return text.slice(start, start + ops[i++])
      }
      case 4:
        return BigInt(ops[i++])
      case 5: {
        const start = ops[i++]
        return BigInt(text.slice(start, start + ops[i++]))
      }
      case 6: {
        const start = ops[i++]
        const coefficient = BigInt(text.slice(start, start + ops[i++]))
        return new Decimal(coefficient, ops[i++], TRUSTED)
      }
      case 7: {
        const n = ops[i++]
        const array = new Array(n)
        for (let j = 0; j < n; j++) array[j] = value()
        return array
      }
      case 8: {
        const n = ops[i++]
        const object = {}
        for (let j = 0; j < n; j++) {
          const key = keys[ops[i++]]
          if (key === '__proto__') {
            // A member, not the prototype.
            Object.defineProperty(object, key, { value: value(), writable: true, enumerable: true, configurable: true })
          } else {
            object[key] = value()
          }
        }
        return object
      }
      case 9: {
        const start = ops[i++]
        return new Instant(BigInt(text.slice(start, start + ops[i++])))
      }
      case 10: {
        const start = ops[i++]
        return new Duration(BigInt(text.slice(start, start + ops[i++])))
      }
      case 11: {
        const start = ops[i++]
        return Buffer.from(text.slice(start, start + ops[i++]), 'base64')
      }
      case 12:
      case 13: {
        const kind = ops[i - 1]
        const n = ops[i++]
        const items = new Array(n)
        for (let j = 0; j < n; j++) items[j] = value()
        return kind === 12 ? new Set(items) : new FlowSet(items)
      }
      case 14:
      case 15: {
        const kind = ops[i - 1]
        const n = ops[i++]
        const entries = new Array(n)
        for (let j = 0; j < n; j++) {
          const k = value()
          entries[j] = [k, value()]
        }
        return kind === 14 ? new Map(entries) : new FlowMap(entries)
      }
      case 16:
        return undefined
      case 17:
        return new Some(value())
      case 18:
        return { case: keys[ops[i++]] }
      case 19: {
        const name = keys[ops[i++]]
        return { case: name, value: value() }
      }
      case 20: {
        const start = ops[i++]
        return new HostToken(text.slice(start, start + ops[i++]))
      }
      case 21:
        return int64s[w++]
      default:
        throw new Error('@flow/toolkit: a malformed tape (a bug)')
    }
  }
  return value()
}

module.exports = { fromTape }

// The other way: a JSON value built in JavaScript written as a tape for
// native code, which holds it to Flow's rules and writes its canonical text.
// Ops are those above; a string, a key or a number's text is its UTF-16
// length in the ops and its contents in one joined string.
const { FlowError } = require('./errors.js')

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

function pathText(path) {
  let out = '$'
  for (const seg of path) {
    out += typeof seg === 'number' ? `[${seg}]` : IDENTIFIER.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`
  }
  return out
}

function describe(value) {
  if (typeof value === 'number') {
    const exact = Number.isSafeInteger(value) ? `a bigint (${value}n)` : `Decimal.parse("${value}")`
    return `the number ${value} (a JavaScript number is a binary float, not exact: write ${exact})`
  }
  if (value === undefined) return 'undefined'
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`
  return `a ${typeof value}`
}

function toTape(root, maxDepth = 128) {
  let ops = new Int32Array(1 << 16)
  let n = 0
  const parts = []
  const push = (op) => {
    if (n === ops.length) {
      const grown = new Int32Array(ops.length * 2)
      grown.set(ops)
      ops = grown
    }
    ops[n++] = op
  }
  const text = (s) => {
    push(s.length)
    parts.push(s)
  }
  // The path of a refusal is gathered as it unwinds, so a success pays nothing.
  const refuse = (rule, detail) => {
    const e = new FlowError('$', rule, detail)
    e.segments = []
    throw e
  }
  const under = (e, seg) => {
    if (e instanceof FlowError && e.segments) e.segments.unshift(seg)
    throw e
  }
  function value(v, depth) {
    switch (typeof v) {
      case 'string':
        push(3)
        text(v)
        return
      case 'bigint':
        if (v >= -2147483648n && v <= 2147483647n) {
          push(4)
          push(Number(v))
        } else {
          push(5)
          text(v.toString())
        }
        return
      case 'boolean':
        push(v ? 2 : 1)
        return
      case 'object':
        break
      default:
        refuse('encode', `expected JSON (null, boolean, bigint, Decimal, string, array or object), found ${describe(v)}`)
    }
    if (v === null) {
      push(0)
      return
    }
    if (v instanceof Decimal) {
      if (v.exponent > 2147483647 || v.exponent < -2147483648) refuse('number-too-large', 'a Decimal whose exponent is past any digit limit')
      push(6)
      text(v.coefficient.toString())
      push(v.exponent)
      return
    }
    if (depth >= maxDepth) refuse('too-deep', `nested deeper than ${maxDepth} levels (a cycle, or a value past the depth limit)`)
    if (Array.isArray(v)) {
      push(7)
      push(v.length)
      for (let i = 0; i < v.length; i++) {
        try {
          value(v[i], depth + 1)
        } catch (e) {
          under(e, i)
        }
      }
      return
    }
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) refuse('encode', `expected JSON, found ${describe(v)}`)
    const keys = Object.keys(v)
    push(8)
    push(keys.length)
    for (const key of keys) {
      text(key)
      try {
        value(v[key], depth + 1)
      } catch (e) {
        under(e, key)
      }
    }
  }
  try {
    value(root, 0)
  } catch (e) {
    if (e instanceof FlowError && e.segments) throw new FlowError(pathText(e.segments), e.rule, e.detail)
    throw e
  }
  return [ops.subarray(0, n), parts.join('')]
}

module.exports.toTape = toTape
