'use strict'
// The type mapping, both ways: each Flow type's JavaScript form, values
// round-tripping exactly, and refusals naming the path and rule instead of
// coercing.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const t = require('..')
const { Decimal, Instant, Duration, HostToken, Some, FlowSet, FlowMap, FlowError, Types } = t

const weather = new Types(fs.readFileSync(path.join(__dirname, '..', '..', 'tests', 'examples', 'weather.tools.json')))
const hostile = new Types(fs.readFileSync(path.join(__dirname, 'fixtures', 'hostile.tools.json')))
const plain = new Types()
const named = (declaration, args = []) => ({ Named: { declaration, args } })

function refuses(fn, rule, path) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof FlowError, String(e))
    assert.equal(e.rule, rule, e.message)
    if (path !== undefined) assert.equal(e.path, path, e.message)
    return true
  })
}

test('Int is bigint, exactly, past 2^53 and past 2^64', () => {
  const c = plain.codec('Int')
  assert.equal(c.decode('9007199254740993'), 9007199254740993n)
  assert.equal(c.decode('-123456789012345678901234567890'), -123456789012345678901234567890n)
  assert.equal(c.decode('1e3'), 1000n)
  assert.equal(c.encode(-(2n ** 200n)), (-(2n ** 200n)).toString())
  refuses(() => c.decode('1.5'), 'not-whole', '$')
  refuses(() => c.encode(5), 'encode', '$')
  assert.throws(() => c.encode(5), /write a bigint \(5n\)/)
  refuses(() => c.encode(10n ** 4300n), 'number-too-large')
})

test('Decimal is exact and normalized; strings in and out', () => {
  const c = plain.codec('Decimal')
  const v = c.decode('1234567890.12345678901234567890')
  assert.ok(v instanceof Decimal)
  assert.equal(v.toString(), '1234567890.1234567890123456789')
  assert.equal(c.decode('1.50').toString(), '1.5')
  assert.equal(c.decode('-0.0').toString(), '0')
  assert.equal(c.decode('1e-7').toString(), '0.0000001')
  assert.equal(c.encode(Decimal.parse('2.500')), '2.5')
  assert.ok(Decimal.parse('1.50').equals('1.5'))
  assert.equal(Decimal.compare('0.1', '0.09'), 1)
  assert.equal(Decimal.from('1e+21').toString(), '1000000000000000000000')
  assert.equal(Decimal.parse('12.5').toBigInt === undefined, false)
  assert.throws(() => Decimal.parse('12.5').toBigInt(), RangeError)
  assert.throws(() => Decimal.from(0.1), TypeError)
  assert.throws(() => Decimal.parse('1,5'), SyntaxError)
  assert.throws(() => Decimal.parse('1.5') < Decimal.parse('2'), TypeError)
  assert.equal(JSON.stringify({ d: Decimal.parse('0.10') }), '{"d":"0.1"}')
  refuses(() => c.encode(1.5), 'encode')
  refuses(() => c.encode(15n), 'encode')
})

test('Instant and Duration: bigint nanoseconds, to and from Date where it fits', () => {
  const i = plain.codec('Instant').decode('"2026-11-30T09:15:00.123456789+01:00"')
  assert.ok(i instanceof Instant)
  assert.equal(i.toString(), '2026-11-30T08:15:00.123456789Z')
  assert.throws(() => i.toDate(), /below the millisecond/)
  const ms = Instant.parse('2026-11-30T08:15:00.5Z')
  assert.equal(ms.toDate().toISOString(), '2026-11-30T08:15:00.500Z')
  assert.ok(Instant.fromDate(new Date(0)).equals(new Instant(0n)))
  assert.equal(new Instant(-1n).toString(), '1969-12-31T23:59:59.999999999Z')
  assert.throws(() => new Instant(8_640_000_000_000_000_000_001n), RangeError)
  const d = plain.codec('Duration').decode('"PT1.50S"')
  assert.equal(d.nanoseconds, 1_500_000_000n)
  assert.equal(d.toString(), 'PT1.5S')
  assert.equal(d.toMilliseconds(), 1500)
  assert.throws(() => new Duration(1n).toMilliseconds(), RangeError)
  assert.equal(Duration.fromSeconds(-5).toString(), 'PT-5S')
  refuses(() => plain.codec('Duration').decode('"PT1M"'), 'duration', '$')
})

test('Text refuses lone surrogates both ways; Bytes are Uint8Array; Unit is null', () => {
  refuses(() => plain.codec('Text').encode('a\ud800'), 'lone-surrogate', '$')
  refuses(() => plain.codec('Text').decode('"\\ud800"'), 'lone-surrogate')
  assert.equal(plain.codec('Text').encode('é\u0000"'), '"é\\u0000\\""')
  const b = plain.codec('Bytes')
  assert.deepEqual([...b.decode('"AAEC"')], [0, 1, 2])
  assert.ok(b.decode('"AAEC"') instanceof Uint8Array)
  assert.equal(b.encode(new Uint8Array([255, 254])), '"//4="')
  refuses(() => b.decode('"AAE"'), 'base64')
  assert.equal(plain.codec('Unit').decode('null'), null)
  refuses(() => plain.codec('Unit').encode(undefined), 'encode')
})

test('Option: undefined is None; Some only where the payload is itself an Option', () => {
  const o = plain.codec({ Option: 'Int' })
  assert.equal(o.decode('"None"'), undefined)
  assert.equal(o.decode('{"Some":5}'), 5n)
  refuses(() => o.encode(null), 'encode', '$')
  const oo = plain.codec({ Option: { Option: 'Int' } })
  assert.equal(oo.decode('"None"'), undefined)
  assert.deepEqual(oo.decode('{"Some":"None"}'), new Some(undefined))
  assert.deepEqual(oo.decode('{"Some":{"Some":7}}'), new Some(7n))
  for (const v of [undefined, new Some(undefined), new Some(7n)]) assert.deepEqual(oo.fromJson(oo.toJson(v)), v)
  refuses(() => oo.encode(7n), 'encode', '$')
  // A record field of Option<Unit>: absent is None, null is Some(Unit).
  const u = plain.codec({ List: { Option: 'Unit' } })
  assert.deepEqual(u.decode('["None",{"Some":null}]'), [undefined, null])
})

test('records: readonly objects with their Flow field names; Option fields absent for None', () => {
  const day = weather.codec(named('2'))
  const v = day.decode('{"date":"d","high_c":1.0,"low_c":-2,"sky":{"Storm":{"wind_kph":88.5}},"extra":1}')
  assert.deepEqual(Object.keys(v), ['date', 'high_c', 'low_c', 'sky'])
  assert.equal(v.sky.case, 'Storm')
  assert.equal(v.sky.value.wind_kph.toString(), '88.5')
  assert.equal('warning' in v.sky.value, false)
  assert.equal(day.encode({ ...v, rain_mm: undefined }), '{"date":"d","high_c":1,"low_c":-2,"sky":{"Storm":{"wind_kph":88.5}}}')
  refuses(() => day.encode({ ...v, rainMm: Decimal.parse('1') }), 'encode', '$')
  refuses(() => day.encode({ date: 'd', high_c: Decimal.parse('1'), sky: { case: 'Clear' } }), 'missing-field', '$')
  refuses(() => day.encode({ ...v, sky: { case: 'Cloudy', value: 5 } }), 'encode', '$.sky.value')
  refuses(() => day.encode({ ...v, sky: { case: 'Foggy' } }), 'constructor', '$.sky.case')
  refuses(() => day.encode({ ...v, sky: { case: 'Clear', value: 1n } }), 'constructor', '$.sky.value')
})

test('hostile field names, __proto__ included, cross as members', () => {
  const c = hostile.codec(named('1'))
  const v = c.decode('{"__proto__":1,"case":"c","a b":true,"constructor":null}')
  assert.equal(Object.getPrototypeOf(v), Object.prototype)
  assert.ok(Object.hasOwn(v, '__proto__'))
  assert.equal(c.encode(v), '{"__proto__":1,"a b":true,"case":"c","constructor":null}')
  const e = hostile.codec(named('2'))
  assert.deepEqual(e.decode('{"x-y":[1,"a"]}'), { case: 'x-y', value: [1n, 'a'] })
  assert.deepEqual(e.decode('{"value":{"case":3}}'), { case: 'value', value: { case: 3n } })
})

test('Option fields named like Object.prototype members are absent for None, not inherited', () => {
  // Found by flow-crosslang: a None field named toString or __proto__ was
  // read from Object.prototype and refused as inherited.
  const types = new Types(JSON.stringify({
    data: '0.1',
    tools: [{ tool: 'tools/p.flow.t', doc: null, generic: [], params: [{ name: 'r', type: named('1') }], ok: 'Unit', err: 'Never' }],
    declarations: {
      1: {
        name: 'R', identity: 'tools/p.flow.R', lexical_ordinal: 1, generic: [], opaque: false, kind: 'record', doc: null,
        fields: ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'].map((name) => ({ name, type: { Option: 'Int' }, doc: null })),
      },
    },
  }))
  const c = types.codec(named('1'))
  assert.equal(c.encode(c.decode('{}')), '{}')
  assert.equal(c.encode({}), '{}')
  assert.equal(c.encode(c.decode('{"__proto__":1,"toString":2}')), '{"__proto__":1,"toString":2}')
  // A field inherited from anything else is still refused.
  refuses(() => c.encode(Object.create({ toString: 5n })), 'encode', '$')
})

test('an enum payload of one Option part holds None as value: undefined', () => {
  // Found by flow-crosslang: {"Left":"None"} decoded to { case, value: undefined },
  // which encoding refused as a payload left out.
  const types = new Types(JSON.stringify({
    data: '0.1',
    tools: [{ tool: 'tools/e.flow.t', doc: null, generic: [], params: [{ name: 'e', type: named('1') }], ok: 'Unit', err: 'Never' }],
    declarations: {
      1: {
        name: 'E', identity: 'tools/e.flow.E', lexical_ordinal: 1, generic: [], opaque: false, kind: 'enum', doc: null,
        constructors: [{ name: 'Left', doc: null, payload: { positional: [{ Option: 'Int' }] } }, { name: 'Right', doc: null, payload: { positional: ['Int'] } }],
      },
    },
  }))
  const c = types.codec(named('1'))
  for (const text of ['{"Left":"None"}', '{"Left":{"Some":5}}']) {
    assert.equal(c.encode(c.decode(text)), text)
  }
  assert.equal(c.encode({ case: 'Left', value: undefined }), '{"Left":"None"}')
  refuses(() => c.encode({ case: 'Right', value: undefined }), 'constructor', '$.value')
})

test('records in bulk (past the count where a shape gets a compiled builder): declaration order, absent None, __proto__ a member', () => {
  const days = weather.codec({ List: named('2') })
  const items = []
  for (let i = 0; i < 60; i++) {
    const rain = i % 3 === 0 ? `,"rain_mm":${i}.5` : ''
    items.push(`{"sky":"Clear","low_c":-${i},"high_c":${i}${rain},"date":"d${i}"}`)
  }
  const v = days.decode(`[${items.join(',')}]`)
  for (let i = 0; i < 60; i++) {
    const keys = i % 3 === 0 ? ['date', 'high_c', 'low_c', 'sky', 'rain_mm'] : ['date', 'high_c', 'low_c', 'sky']
    assert.deepEqual(Object.keys(v[i]), keys)
    assert.equal(v[i].date, `d${i}`)
    assert.equal(v[i].low_c.toString(), String(-i))
  }
  const promises = hostile.codec({ List: named('1') })
  const many = promises.decode(`[${Array.from({ length: 60 }, (_, i) => `{"constructor":null,"case":"c${i}","__proto__":${i}}`).join(',')}]`)
  for (let i = 0; i < 60; i++) {
    assert.equal(Object.getPrototypeOf(many[i]), Object.prototype)
    assert.deepEqual(Object.keys(many[i]), ['__proto__', 'case', 'constructor'])
    assert.equal(many[i].__proto__, BigInt(i))
  }
})

test('a record decoded and an object parsed with the same keys in the same text order keep their own key orders', () => {
  // Compiled builders are shared by shape: a record's keys are set in
  // declaration order, a parsed object's in ascending order, so a builder
  // made for one must not serve the other.
  const days = weather.codec({ List: named('2') })
  const text = `[${Array.from({ length: 40 }, (_, i) => `{"date":"d${i}","high_c":${i},"low_c":-${i},"sky":"Clear","rain_mm":${i}.5}`).join(',')}]`
  const declared = ['date', 'high_c', 'low_c', 'sky', 'rain_mm']
  const ascending = ['date', 'high_c', 'low_c', 'rain_mm', 'sky']
  for (let round = 0; round < 2; round++) {
    for (const day of days.decode(text)) assert.deepEqual(Object.keys(day), declared)
    for (const day of t.parse(text)) assert.deepEqual(Object.keys(day), ascending)
  }
})

test('Set and Dict: built-in collections where JavaScript equality is Flow\'s, Flow collections elsewhere', () => {
  const tags = plain.codec({ Set: 'Text' })
  const s = tags.decode('["b","a"]')
  assert.ok(s instanceof Set)
  assert.deepEqual([...s], ['a', 'b'])
  refuses(() => tags.decode('["a","a"]'), 'duplicate-element', '$[1]')
  const days = weather.codec({ Set: named('2') })
  const text = '[{"date":"b","high_c":1,"low_c":1,"sky":"Clear"},{"date":"a","high_c":1,"low_c":1,"sky":"Clear"}]'
  const set = days.decode(text)
  assert.ok(set instanceof FlowSet)
  assert.deepEqual([...set].map((d) => d.date), ['a', 'b'])
  // Flow's equality: an equal record built anew is a member.
  assert.ok(set.has({ date: 'a', high_c: Decimal.parse('1.0'), low_c: new Decimal(1n), sky: { case: 'Clear' } }))
  assert.equal(new FlowSet([...set, ...set]).size, 2)
  assert.equal(days.encode(set), days.encode(new FlowSet([...set].reverse())))
  // Two equal members given in a built-in Set are refused, not merged.
  refuses(() => days.encode(new Set([[...set][0], { ...[...set][0] }])), 'duplicate-element')
  const counts = plain.codec({ Dict: ['Int', 'Int'] })
  const m = counts.decode('[[2,1],[1,3]]')
  assert.ok(m instanceof Map)
  assert.deepEqual([...m], [[1n, 3n], [2n, 1n]])
  refuses(() => counts.decode('[[1,1],[1,2]]'), 'duplicate-key', '$[1]')
  const byDecimal = plain.codec({ Dict: ['Decimal', 'Text'] })
  const fm = byDecimal.decode('[[1.50,"a"],[0.5,"b"]]')
  assert.ok(fm instanceof FlowMap)
  assert.equal(fm.get(Decimal.parse('1.5')), 'a')
  assert.throws(() => new FlowMap([[Decimal.parse('1'), 'a'], [Decimal.parse('1.0'), 'b']]), RangeError)
  const readings = plain.codec({ Dict: ['Text', 'Decimal'] })
  assert.equal(readings.encode(new Map([['b', Decimal.parse('1')], ['a', Decimal.parse('2')]])), '{"a":2,"b":1}')
})

test('json.Value: whole numbers bigint, others Decimal; objects plain; numbers refused', () => {
  const j = plain.codec('json.Value')
  const v = j.decode('{"n":12345678901234567890,"d":0.1,"a":[true,null,"s"],"__proto__":{}}')
  assert.equal(v.n, 12345678901234567890n)
  assert.ok(v.d instanceof Decimal)
  assert.ok(Object.hasOwn(v, '__proto__'))
  assert.equal(j.encode(v), '{"__proto__":{},"a":[true,null,"s"],"d":0.1,"n":12345678901234567890}')
  refuses(() => j.encode({ x: 1 }), 'encode', '$.x')
  refuses(() => j.encode({ x: undefined }), 'encode', '$.x')
  assert.equal(t.stringify(t.parse('[1.0, 1e2, -0]')), '[1,100,0]')
  const parsed = t.parse('{"__proto__":{"a":1},"big":-123456789012345678901234567890,"small":-7,"d":-1.50e-3,"s":"é😀"}')
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype)
  assert.deepEqual(Object.keys(parsed), ['__proto__', 'big', 'd', 's', 'small'])
  assert.equal(parsed.big, -123456789012345678901234567890n)
  assert.equal(parsed.small, -7n)
  assert.equal(parsed.d.toString(), '-0.0015')
  assert.equal(parsed.s, 'é😀')
  refuses(() => t.parse('{"a":1,"a":1}'), 'duplicate-key', '$')
  refuses(() => t.parse('[[1]]', { maxDepth: 1 }), 'too-deep')
  // stringify: keys in code-point order (U+E000 before U+1F600, which UTF-16
  // order would reverse), exact numbers, refusals at their path.
  assert.equal(t.stringify({ b: 1n, a: [Decimal.parse('-2.50'), 3000000000n], '\uE000': null, '😀': true }), '{"a":[-2.5,3000000000],"b":1,"\uE000":null,"😀":true}')
  refuses(() => t.stringify({ a: [1n, 2] }), 'encode', '$.a[1]')
  refuses(() => t.stringify({ 'a b': 'x\ud800' }), 'lone-surrogate', '$["a b"]')
  refuses(() => t.stringify([10n ** 4300n]), 'number-too-large', '$[0]')
  refuses(() => t.stringify(new Map()), 'encode', '$')
  const cyclic = { a: [] }
  cyclic.a.push(cyclic)
  refuses(() => t.stringify(cyclic), 'too-deep')
})

test('host tokens are kept as canonical text and handed back', () => {
  const c = plain.codec({ List: 'Int' })
  assert.ok(c)
  const token = new HostToken('{ "b": 1, "a": [1.50] }')
  assert.equal(token.canonical, '{"a":[1.5],"b":1}')
})

test('tuples are arrays of exactly their length', () => {
  const c = plain.codec({ Tuple: ['Instant', 'Decimal'] })
  const v = c.decode('["2026-01-01T00:00:00Z", 1.5]')
  assert.ok(v[0] instanceof Instant)
  refuses(() => c.encode([v[0]]), 'tuple-length', '$')
})

test('codecs compare by Flow\'s order and equality', () => {
  const sky = weather.codec(named('3'))
  // Declaration order, not alphabetical: Clear < Cloudy < Storm.
  assert.ok(sky.compare({ case: 'Storm', value: { wind_kph: new Decimal(1n) } }, { case: 'Clear' }) > 0)
  assert.ok(sky.compare({ case: 'Cloudy', value: 5n }, { case: 'Cloudy', value: 50n }) < 0)
  assert.ok(sky.equals({ case: 'Cloudy', value: 5n }, { case: 'Cloudy', value: 5n }))
})

test('signatures, fingerprints and schemas', () => {
  const forecast = 'github.com/acme/weather@1.2.0/weather.flow.get_forecast'
  assert.equal(weather.fingerprint(forecast), 'sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077')
  assert.deepEqual(weather.signature('github.com/acme/weather@1.2.0/weather.flow.echo', true), {
    err: false,
    generic: ['T'],
    ok: { $param: 'T' },
    params: [['value', { $param: 'T' }]],
  })
  assert.deepEqual(plain.schema({ List: 'Int' }), { type: 'array', items: { type: 'integer' } })
  refuses(() => new Types('{"data":"1.0","tools":[],"declarations":{}}'), 'version', '$.data')
})
