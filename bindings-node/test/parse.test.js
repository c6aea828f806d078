'use strict'
// `parse`: flow-core's reader writes the tape straight from the text (no
// tree), and lib/tape.js builds the values. It must agree with the tree path
// (`canonicalize`, and `Codec` json.Value, which build from flow-core's Json
// tree) on every shared vector file and every JSONTestSuite file, values and
// refusals alike, and every refusal must reach JavaScript with its path and
// rule.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { parse, stringify, canonicalize, Decimal, FlowError, Types } = require('..')

const repo = path.join(__dirname, '..', '..')
const suite = path.join(repo, 'third_party', 'JSONTestSuite', 'test_parsing')
const jsonValue = new Types().codec('json.Value')

function outcome(run) {
  try {
    return { value: run() }
  } catch (e) {
    assert.ok(e instanceof FlowError, `expected a FlowError, got ${e}`)
    return { rule: e.rule, path: e.path }
  }
}

/** Deep equality that also holds key order, bigints and Decimals to it. */
function same(a, b, at = '$') {
  if (a instanceof Decimal || b instanceof Decimal) {
    assert.ok(a instanceof Decimal && b instanceof Decimal, `${at}: ${a} and ${b}`)
    assert.equal(a.coefficient, b.coefficient, at)
    assert.equal(a.exponent, b.exponent, at)
    return
  }
  if (Array.isArray(a)) {
    assert.ok(Array.isArray(b), at)
    assert.equal(a.length, b.length, at)
    a.forEach((item, i) => same(item, b[i], `${at}[${i}]`))
    return
  }
  if (typeof a === 'object' && a !== null) {
    assert.equal(Object.getPrototypeOf(a), Object.prototype, at)
    assert.equal(Object.getPrototypeOf(b), Object.prototype, at)
    assert.deepEqual(Object.keys(a), Object.keys(b), at)
    for (const key of Object.keys(a)) same(a[key], b[key], `${at}.${key}`)
    return
  }
  assert.equal(a, b, at)
}

/** The tape path against the tree path, on one text. */
function agree(name, bytes) {
  const tape = outcome(() => parse(bytes))
  const tree = outcome(() => jsonValue.decode(bytes))
  const text = outcome(() => canonicalize(bytes))
  if (tree.value === undefined) {
    assert.deepEqual(tape, tree, name)
    assert.deepEqual(text, tree, name)
    return
  }
  assert.equal(tape.value === undefined ? tape : undefined, undefined, name)
  same(tape.value, tree.value, name)
  assert.equal(stringify(tape.value), text.value, name)
  // The same text given as a string (when it is UTF-8).
  const string = bytes.toString('utf8')
  if (Buffer.from(string).equals(bytes)) same(parse(string), tree.value, name)
}

test('the tape agrees with the tree on every shared vector file', () => {
  const dir = path.join(repo, 'tests', 'vectors')
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.json'))
  assert.ok(names.length > 5)
  for (const name of names) {
    const bytes = fs.readFileSync(path.join(dir, name))
    agree(name, bytes)
    // And every string of a vector that is JSON text itself (inputs,
    // canonical forms), refusals included.
    const texts = []
    const walk = (v) => {
      if (typeof v === 'string') texts.push(v)
      else if (Array.isArray(v)) v.forEach(walk)
      else if (typeof v === 'object' && v !== null && !(v instanceof Decimal)) Object.values(v).forEach(walk)
    }
    walk(parse(bytes))
    for (const t of texts) agree(`${name}: ${t.slice(0, 40)}`, Buffer.from(t))
  }
})

test('the tape agrees with the tree on every JSONTestSuite file', () => {
  const names = fs.readdirSync(suite).filter((f) => /^[yni]_.*\.json$/.test(f))
  assert.ok(names.length > 300, `only ${names.length} files`)
  for (const name of names) agree(name, fs.readFileSync(path.join(suite, name)))
})

function refuses(run, rule, at) {
  const o = outcome(run)
  assert.deepEqual(o, { rule, path: at })
}

test('every refusal reaches JavaScript with its path and rule', () => {
  refuses(() => parse('{"a":[1,tru]}'), 'syntax', '$.a[1]')
  refuses(() => parse('{"a":[1,2'), 'syntax', '$.a')
  refuses(() => parse('[1] x'), 'syntax', '$')
  refuses(() => parse(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d])), 'utf8', '$')
  refuses(() => parse(Buffer.from([0xef, 0xbb, 0xbf, 0x31])), 'bom', '$')
  refuses(() => parse('{"a":["x","\\ud800"]}'), 'lone-surrogate', '$.a[1]')
  refuses(() => parse('{"a":["\\udc00\\ud800"]}'), 'lone-surrogate', '$.a[0]')
  refuses(() => parse('["\ud800"]'), 'lone-surrogate', '$')
  refuses(() => parse('{"x":{"a":1,"b":2,"a":3}}'), 'duplicate-key', '$.x')
  refuses(() => parse('[{"a":1,"\\u0061":2}]'), 'duplicate-key', '$[0]')
  refuses(() => parse('{"b":1,"a":1,"b":{}}'), 'duplicate-key', '$')
  refuses(() => parse('[1]', { maxBytes: 2 }), 'too-large', '$')
  refuses(() => parse('{"a":[[1]]}', { maxDepth: 2 }), 'too-deep', '$.a[0]')
  refuses(() => parse('{"n":[1e4300]}'), 'number-too-large', '$.n[0]')
  refuses(() => parse('{"n 1":[0.0001]}', { maxDigits: 4 }), 'number-too-large', '$["n 1"][0]')
  assert.equal(parse('[1e4299]')[0], 10n ** 4299n)
  assert.equal(parse('[12.5]', { maxDigits: 3 })[0].toString(), '12.5')
})

test('numbers in every form the tape carries', () => {
  const cases = [
    ['0', 0n],
    ['-0', 0n],
    ['-0.0e5', 0n],
    ['1023', 1023n],
    ['1024', 1024n],
    ['-1024', -1024n],
    ['-1025', -1025n],
    ['2147483647', 2147483647n],
    ['2147483648', 2147483648n],
    ['-2147483649', -2147483649n],
    ['1e18', 10n ** 18n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 9223372036854775808n],
    ['1e19', 10n ** 19n],
    ['123456789012345678901234567890', 123456789012345678901234567890n],
    ['1.5e400', 15n * 10n ** 399n],
    ['10000000000000000000000.000', 10n ** 22n],
  ]
  for (const [text, want] of cases) assert.equal(parse(text), want, text)
  const decimals = [
    ['0.5', 5n, -1],
    ['-12.50', -125n, -1],
    ['2147483.648', 2147483648n, -3],
    ['-0.000000000000000001', -1n, -18],
    ['12345678901234567.8', 123456789012345678n, -1],
    ['1234567890123456789.5', 12345678901234567895n, -1],
    ['0.1234567890123456789012', 1234567890123456789012n, -22],
    ['1e-4299', 1n, -4299],
  ]
  for (const [text, coefficient, exponent] of decimals) {
    const d = parse(text)
    assert.ok(d instanceof Decimal, text)
    assert.equal(d.coefficient, coefficient, text)
    assert.equal(d.exponent, exponent, text)
  }
  // An exponent past an i32 (with a digit limit raised to allow it).
  const far = parse('[-3e-3000000000]', { maxDigits: 4e9 })[0]
  assert.equal(far.coefficient, -3n)
  assert.equal(far.exponent, -3000000000)
})

test('objects: keys in code-point order, shapes and builders, __proto__ a member', () => {
  const text = JSON.stringify(
    Array.from({ length: 200 }, (_, i) => ({
      z: i,
      a: [i, 'é'],
      ...(i % 3 === 0 ? { m: null } : {}),
      ...(i % 7 === 0 ? { ['k' + (i % 50)]: true } : {}),
      '\u2028"\\\'${x}*/': 'q',
      ...(i % 2 === 0 ? { ['__proto__']: { p: i } } : {}),
      '10': 'ten',
      '9': 'nine',
      '😀': 1,
      '\uE000': 2,
    })),
  )
  const ours = parse(text)
  same(ours, jsonValue.decode(text))
  assert.equal(stringify(ours), canonicalize(text))
  const first = ours[0]
  assert.equal(Object.getPrototypeOf(first), Object.prototype)
  assert.ok(Object.hasOwn(first, '__proto__'))
  assert.deepEqual(first.__proto__, { p: 0n })
  assert.deepEqual(Object.keys(first), ['9', '10', '__proto__', 'a', 'k0', 'm', 'z', '\u2028"\\\'${x}*/', '\uE000', '😀'])
  // Many keys after one prefix (past the shape tree's listed children).
  const wide = `[${Array.from({ length: 40 }, (_, i) => `{"p":${i},"q${i}":{}}`).join(',')},${Array.from({ length: 40 }, (_, i) => `{"p":${i},"q${i}":[]}`).join(',')}]`
  same(parse(wide), jsonValue.decode(wide))
  // Arrays of every length the builder writes as a literal, and longer.
  const arrays = JSON.stringify(Array.from({ length: 14 }, (_, n) => Array.from({ length: n }, (_, i) => [i])))
  same(parse(arrays), jsonValue.decode(arrays))
  assert.deepEqual(parse('{}'), {})
  assert.deepEqual(parse('[{},{"":{}}]'), [{}, { '': {} }])
})

test('inputs: a string, a Buffer, a view at an offset, a SharedArrayBuffer', () => {
  const text = '{"b":[1,"é"],"a":2.5}'
  const want = parse(text)
  same(parse(Buffer.from(text)), want)
  same(parse(Buffer.from(`  ${text}  `).subarray(2, 2 + Buffer.byteLength(text))), want)
  const shared = new Uint8Array(new SharedArrayBuffer(64))
  shared.set(Buffer.from(text))
  same(parse(shared.subarray(0, Buffer.byteLength(text))), want)
  refuses(() => parse(shared), 'syntax', '$')
})

test('strings met again share one JavaScript string, past the cache and its collisions', () => {
  // 5,000 distinct short strings (more than the cache holds), each met
  // several times in a scattered order, with Latin-1 and wider ones.
  const words = Array.from({ length: 20000 }, (_, i) => ['w', 'é', '東', 'x'.repeat(30), 'y'.repeat(33)][i % 5] + ((i * 7919) % 5000))
  const text = JSON.stringify({ words, nested: words.slice(0, 300).map((w) => ({ w, again: [w, w] })) })
  const ours = parse(text)
  same(ours, jsonValue.decode(text))
  assert.deepEqual(ours.words, words)
})

test('parses one after another (the tape buffer reused, larger and smaller) each give their own values', () => {
  const big = `[${Array.from({ length: 5000 }, (_, i) => `{"i":${i},"w":${BigInt(i) * 10n ** 15n},"d":${i}.5}`).join(',')}]`
  const small = '[7,-12345678901234,2.5,{"w":99999999999999}]'
  const bigger = `[${big},${big}]`
  const values = [big, small, bigger, small, big].map((text) => [text, parse(text)])
  for (const [text, value] of values) assert.equal(stringify(value), canonicalize(text))
  assert.equal(values[0][1][4999].w, 4999n * 10n ** 15n)
  assert.equal(values[1][1][1], -12345678901234n)
})

test('arrays longer than the stack parse keeps, nested in and around shorter ones, then a short parse', () => {
  // Past 65,536 values the stack that gathers arrays is let go after the
  // parse; values before and after must come out whole either way.
  const long = Array.from({ length: 70000 }, (_, i) => (i % 3 === 0 ? [i, [i], 'x' + i] : i))
  const text = JSON.stringify({ head: [1, [2, [3]]], long, tail: [[4], 5] })
  const value = parse(text)
  assert.equal(stringify(value), canonicalize(text))
  assert.equal(value.long.length, 70000)
  assert.deepEqual(value.long[69999], [69999n, [69999n], 'x69999'])
  assert.deepEqual(value.tail, [[4n], 5n])
  assert.deepEqual(parse('[[1,2],[3]]'), [[1n, 2n], [3n]])
})

test('the parser keeps no parsed value alive once its document is dropped', () => {
  // In a process of its own with --expose-gc: a WeakRef to a value parse
  // built (gathered on its stack on the way) must clear once the document
  // is dropped, also after a larger parse and a nested one.
  const script = `
    const { parse } = require(${JSON.stringify(path.join(__dirname, '..'))})
    parse(JSON.stringify(Array.from({ length: 5000 }, (_, i) => [i, { k: [i] }])))
    let doc = parse('[[{"a":[1,2],"s":"held"}],{"b":[[3]]}]')
    const refs = [new WeakRef(doc[0][0].a), new WeakRef(doc[1].b[0]), new WeakRef(doc[0][0])]
    doc = null
    setTimeout(() => {
      globalThis.gc()
      const alive = refs.filter((r) => r.deref() !== undefined).length
      process.stdout.write(String(alive))
    }, 0)
  `
  const run = require('node:child_process').spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })
  assert.equal(run.stderr, '')
  assert.equal(run.stdout, '0')
})

test('a setter or read-only property a program added to Object.prototype neither runs nor refuses a member', () => {
  let calls = 0
  Object.defineProperty(Object.prototype, 'zz', { set: () => calls++, get: () => 'inherited', configurable: true })
  Object.defineProperty(Object.prototype, 'ro', { value: 'inherited', writable: false, configurable: true })
  try {
    // 40 objects of one shape: the first ones set key by key, the later ones
    // by the shape's builder.
    const text = `[${Array.from({ length: 40 }, (_, i) => `{"zz":${i},"ro":"r${i}","a":true}`).join(',')}]`
    const values = parse(text)
    assert.equal(calls, 0)
    values.forEach((v, i) => {
      assert.ok(Object.hasOwn(v, 'zz') && Object.hasOwn(v, 'ro'))
      assert.equal(v.zz, BigInt(i))
      assert.equal(v.ro, `r${i}`)
      assert.deepEqual(Object.keys(v), ['a', 'ro', 'zz'])
    })
    assert.equal(stringify(values), canonicalize(text))
  } finally {
    delete Object.prototype.zz
    delete Object.prototype.ro
  }
})
