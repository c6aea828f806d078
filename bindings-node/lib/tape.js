'use strict'
// Builds JSON values from the tape native code writes (src/tape.rs says its
// format): one pass, no Node-API call per value.
//
// Built for the young generation. Everything here starts in V8's young
// generation (16 MiB by default), and a document dropped before the next
// scavenge costs that scavenge nothing. So the build leaves as little garbage
// as it can (the document's own size decides how often scavenges come), and
// no array or object is made by a literal: V8 watches where literals
// allocate, and once a scavenge has caught a large document half-built it
// may allocate that literal's objects in old space from then on. Old objects
// of dropped documents then hold their young bigints and strings alive (each
// scavenge takes old-to-young pointers as roots) until a full collection, so
// each parse would copy the documents before it. Measured on the benchmark
// corpus: twice the time.
const { Decimal, TRUSTED } = require('./decimal.js')
const { Instant, Duration } = require('./time.js')
const { HostToken } = require('./host-token.js')
const { Some } = require('./option.js')
const { FlowSet, FlowMap } = require('./collections.js')

// Integers in [-1024, 1024) as bigints made once: a bigint is a value, so
// sharing one is invisible, and small ones are the most common.
const SMALL = 1024
const SMALL_BIGINTS = []
for (let i = -SMALL; i < SMALL; i++) SMALL_BIGINTS.push(BigInt(i))

// The tape being read (module state rather than closures, which V8 handles
// faster; saved and restored around each build so a nested one is safe).
let ops, narrow, wide, keys, shapes, kept, at, w
// Values whose array or object is not made yet: pushed by index and never
// shrunk while a value is built, so that pushing leaves no garbage behind.
let stack = []
let top = 0
// Slots at `high` and above hold no value: after a build only those below are
// cleared, so that a small parse after a large one does not clear them all.
let high = 0
const STACK_KEPT = 1 << 16
// Bigints are read through DataViews: V8 makes a bigint read from a
// BigInt64Array element, or by BigInt() from a number, with a 16-byte
// temporary beside the 24-byte bigint; DataView.getBigInt64 makes only the
// bigint (measured with heapUsed on Node 20).
let int64View
const SCRATCH64 = new DataView(new ArrayBuffer(8))

function text() {
  const start = ops[at++]
  const n = ops[at++]
  return start >= 0 ? narrow.slice(start, start + n) : wide.slice(~start, ~start + n)
}

function int(i) {
  if (i >= -SMALL && i < SMALL) return SMALL_BIGINTS[i + SMALL]
  SCRATCH64.setInt32(0, i, true)
  SCRATCH64.setInt32(4, i < 0 ? -1 : 0, true)
  return SCRATCH64.getBigInt64(0, true)
}

function int64() {
  return int64View.getBigInt64(8 * w++, true)
}

// An array's values are gathered on the stack and copied out at their size
// (packed, as JSON.parse makes arrays).
function array(n) {
  const base = top
  for (let j = 0; j < n; j++) stack[top++] = value()
  if (top > high) high = top
  const items = stack.slice(base, top)
  top = base
  return items
}

function member(object, key, item) {
  if (key in Object.prototype) {
    // A member, as JSON.parse makes it: not the prototype (`__proto__`), and
    // no setter or read-only property inherited from Object.prototype
    // (which a program may have added) is run or refuses it.
    Object.defineProperty(object, key, { value: item, writable: true, enumerable: true, configurable: true })
  } else {
    object[key] = item
  }
}

// An object of a shape: its values come in text order, and its keys are set
// in ascending order (the order flow-core's objects have). A shape met often
// gets a builder of its own (see `builder`), which V8 makes far faster than
// adding keys one by one.
function shaped(shape) {
  if (shape.build !== null) return shape.build()
  if (++shape.uses === COMPILE_AFTER) {
    shape.build = builder(shape.names, shape.order)
    if (shape.build !== null) return shape.build()
  }
  const names = shape.names
  const n = names.length
  const order = shape.order
  const object = {}
  if (order === null) {
    if (shape.proto) {
      for (let j = 0; j < n; j++) member(object, names[j], value())
    } else {
      for (let j = 0; j < n; j++) object[names[j]] = value()
    }
    return object
  }
  const base = top
  for (let j = 0; j < n; j++) stack[top++] = value()
  if (top > high) high = top
  if (shape.proto) {
    for (let j = 0; j < n; j++) member(object, names[j], stack[base + order[j]])
  } else {
    for (let j = 0; j < n; j++) object[names[j]] = stack[base + order[j]]
  }
  top = base
  return object
}

// Builders, by their shape's keys in text order, kept across calls (up to a
// bound) so that parsing documents of one kind compiles each once. A shape
// gets one on its COMPILE_AFTER-th object in a document: compiling costs
// about as much as building a few dozen objects one key at a time.
const COMPILE_AFTER = 24
const MAX_BUILDERS = 1000
const builders = new Map()
let compiling = true

// function () { const object = { ...template }; object["b"] = value(); object["a"] = value(); return object }:
// a copy of the shape's template (its keys in the order they are set, each
// null), then its values stored in text order. A copy has no allocation site
// for V8 to move to old space, as a literal would (see the top of this file).
// Each key is written by JSON.stringify, so it is a string literal whatever
// it holds; in the template `__proto__` is a computed key, which makes a
// member rather than setting the prototype, and every key is then the copy's
// own data property, so storing to it runs no setter Object.prototype may
// have. Where code generation is disallowed
// (--disallow-code-generation-from-strings), shapes keep the generic way.
function builder(names, order) {
  if (!compiling) return null
  const n = names.length
  const inText = new Array(n)
  for (let j = 0; j < n; j++) inText[order === null ? j : order[j]] = names[j]
  // Both orders: the keys as the text gives them (the order values are read
  // in) and as they are set (ascending for parse, declaration order for a
  // record), which two shapes of the same keys may not share.
  const signature = JSON.stringify([inText, names])
  let build = builders.get(signature)
  if (build !== undefined) return build
  let literal = ''
  for (let j = 0; j < n; j++) {
    const key = JSON.stringify(names[j])
    literal += `${names[j] === '__proto__' ? `[${key}]` : key}: null,\n`
  }
  let body = 'const object = { ...template }\n'
  for (let t = 0; t < n; t++) body += `object[${JSON.stringify(inText[t])}] = value()\n`
  body += 'return object'
  try {
    const template = new Function(`return {\n${literal}}`)()
    build = new Function('value', 'template', `return function build() {\n${body}\n}`)(value, template)
  } catch {
    compiling = false
    return null
  }
  if (builders.size >= MAX_BUILDERS) builders.clear()
  builders.set(signature, build)
  return build
}

// Enum values' templates (copied, not literals: see the top of this file).
const CASE = { case: null }
const CASE_VALUE = { case: null, value: null }

function value() {
  switch (ops[at++]) {
    case 0:
      return null
    case 1:
      return false
    case 2:
      return true
    case 3:
      return text()
    case 4:
      return int(ops[at++])
    case 5:
      return BigInt(text())
    case 6: {
      const coefficient = BigInt(text())
      return new Decimal(coefficient, ops[at++], TRUSTED)
    }
    case 7:
      return array(ops[at++])
    case 9:
      return new Instant(BigInt(text()))
    case 10:
      return new Duration(BigInt(text()))
    case 11:
      return Buffer.from(text(), 'base64')
    case 12:
    case 13: {
      const kind = ops[at - 1]
      const n = ops[at++]
      const items = new Array(n)
      for (let j = 0; j < n; j++) items[j] = value()
      return kind === 12 ? new Set(items) : new FlowSet(items)
    }
    case 14:
    case 15: {
      const kind = ops[at - 1]
      const n = ops[at++]
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
    case 18: {
      const object = { ...CASE }
      object.case = keys[ops[at++]]
      return object
    }
    case 19: {
      const object = { ...CASE_VALUE }
      object.case = keys[ops[at++]]
      object.value = value()
      return object
    }
    case 20:
      return new HostToken(text())
    case 21:
      return int64()
    case 22: {
      const coefficient = int(ops[at++])
      return new Decimal(coefficient, ops[at++], TRUSTED)
    }
    case 23: {
      const exponent = ops[at++]
      return new Decimal(int64(), exponent, TRUSTED)
    }
    case 24: {
      const coefficient = BigInt(text())
      return new Decimal(coefficient, Number(int64()), TRUSTED)
    }
    case 25:
      return shaped(shapes[ops[at++]])
    case 26: {
      const s = text()
      kept.push(s)
      return s
    }
    case 27:
      return kept[ops[at++]]
    default:
      throw new Error('@flow/toolkit: a malformed tape (a bug)')
  }
}

// A key as a property name V8 already knows (an internalized string), so
// that setting it does not look it up again each time.
function propertyName(key) {
  for (const name in { [key]: 0 }) return name
}

function readShapes(table) {
  const out = []
  for (let i = 0; i < table.length; ) {
    const n = table[i]
    const flags = table[i + 1]
    i += 2
    const names = new Array(n)
    for (let j = 0; j < n; j++) names[j] = keys[table[i + j]]
    i += n
    let order = null
    if (flags & 1) {
      order = table.subarray(i, i + n)
      i += n
    }
    // Set key by key, a key Object.prototype has (`__proto__`, or one a
    // program added, perhaps with a setter) must be defined instead.
    let proto = (flags & 2) !== 0
    for (let j = 0; j < n && !proto; j++) proto = names[j] in Object.prototype
    out.push({ names, order, proto, uses: 0, build: null })
  }
  return out
}

function fromTape(tapeOps, tapeNarrow, tapeWide, keyTable, tapeInt64s, shapeTable) {
  const saved = [ops, narrow, wide, keys, int64View, shapes, kept, at, w]
  const base = top
  try {
    ops = tapeOps
    narrow = tapeNarrow
    wide = tapeWide
    int64View = new DataView(tapeInt64s.buffer, tapeInt64s.byteOffset, tapeInt64s.byteLength)
    at = 0
    w = 0
    keys = new Array(keyTable.length / 2)
    for (let k = 0; k < keys.length; k++) {
      const start = keyTable[2 * k]
      const n = keyTable[2 * k + 1]
      keys[k] = propertyName(start >= 0 ? narrow.slice(start, start + n) : wide.slice(~start, ~start + n))
    }
    shapes = readShapes(shapeTable)
    kept = []
    return value()
  } finally {
    ;[ops, narrow, wide, keys, int64View, shapes, kept, at, w] = saved
    // The stack keeps no value alive, and lets go of the room a huge array took.
    top = base
    if (base === 0 && stack.length > STACK_KEPT) stack = []
    else if (high > base) stack.fill(undefined, base, high)
    high = base
  }
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
