'use strict'
// End to end: the example weather Tools (examples/typescript, on the
// generated code) run as a process and are called through the Rust host
// client (`flow-host call`), and spoken to line by line where a host would
// not let a bad call through (NotRun) or where timing matters (cancel, a
// re-sent call, stdin's end).
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const { example, weatherListing, binary, buildExample, Peer, weatherScript } = require('./helpers.js')

const W = 'github.com/acme/weather@1.2.0/weather.flow.'
let host

before(() => {
  buildExample()
  host = binary('flow-host')
})

/**
 * `flow-host call`: the outcome it prints and its exit status. `args` is an
 * object, or JSON text where a number must not pass through a float.
 */
function call(tool, args, ...extra) {
  const text = typeof args === 'string' ? args : JSON.stringify(args)
  const r = spawnSync(host, ['call', weatherListing, tool, '--manifest', example, '--args', text, ...extra], {
    encoding: 'utf8',
  })
  assert.equal(r.stderr.includes('panicked'), false, r.stderr)
  return { outcome: r.stdout.trim(), status: r.status, stderr: r.stderr }
}

test('describe answers the listing\'s fingerprints', () => {
  const r = spawnSync(host, ['describe', '--', 'node', 'weather-tools/dist/main.js'], { cwd: example, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /weather\.flow\.get_forecast +sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077/)
  assert.match(r.stdout, /weather\.flow\.echo +sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7/)
})

test('Ok: a forecast, exact decimals converted to Fahrenheit', () => {
  const r = call('get_forecast', { city: 'Oslo', days: 2, units: { Some: 'Imperial' } })
  assert.equal(r.status, 0, r.stderr)
  const ok = JSON.parse(r.outcome).Ok
  assert.equal(ok.city, 'Oslo')
  assert.equal(ok.days.length, 2)
  // 4.5 °C is 40.1 °F exactly; a float would give 40.1 too, but -1.25 °C is
  // 29.75 °F and 3.5 °C (day two) 38.3 °F.
  assert.match(r.outcome, /"high_c":40\.1,"low_c":29\.75/)
  assert.match(r.outcome, /"high_c":38\.3/)
  assert.deepEqual(ok.tags, ['alps', 'snow'])
})

test('Ok: a generic record page with a Dict, json.Value and Bytes', () => {
  const r = call('list_stations', { region: { name: 'north', children: [{ name: 'a', children: [] }, { name: 'b', children: [] }] }, cursor: 'None' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(
    r.outcome,
    '{"Ok":{"items":[{"id":0,"photo":"iVBORw==","position":[47.37,8.54],"raw":{"name":"north","note":null,"ok":true,"sensors":[1,2,2.5]},"readings":{"temp_c":3.5,"wind_kph":12}},{"id":1,"position":[47.37,9.54],"raw":{"name":"a","note":null,"ok":true,"sensors":[1,2,2.5]},"readings":{"temp_c":3.5,"wind_kph":12}}],"next":"2"}}',
  )
})

test('Ok: a non-Text-keyed Dict in, tuples of Instant and Decimal out', () => {
  const r = call(
    'station_history',
    '{"station": 12345678901234567890, "since": "2026-01-01T00:00:00+01:00", "window": "PT0.5S", "counts": [[12345678901234567890, 2], [1, 9]]}',
  )
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.outcome, /^\{"Ok":\[\["2025-12-31T23:00:00Z",0\],\["2025-12-31T23:00:00\.5Z",0\.25\],\["2025-12-31T23:00:00Z",\d+\]\]\}$/)
})

test('Failed: the declared error, for each Tool that has one', () => {
  assert.deepEqual(call('get_forecast', { city: 'Atlantis', days: 1, units: 'None' }), {
    outcome: '{"Failed":{"UnknownCity":{"query":"Atlantis","suggestions":["Athens","Atlanta"]}}}',
    status: 1,
    stderr: '',
  })
  assert.equal(call('list_stations', { region: { name: 'closed', children: [] }, cursor: 'None' }).outcome, '{"Failed":"RateLimited"}')
  assert.equal(
    call('station_history', { station: -1, since: '2026-01-01T00:00:00Z', window: 'PT1S', counts: [] }).outcome,
    '{"Failed":{"Unavailable":"PT5S"}}',
  )
})

test('Failed: the declared error thrown itself, or in Failed, is exactly that value', () => {
  // getForecast throws `{ case: "RateLimited" } satisfies WeatherError`;
  // stationHistory (above) throws `new Failed<WeatherError>(...)`.
  assert.deepEqual(call('get_forecast', { city: 'Oslo', days: 0, units: 'None' }), {
    outcome: '{"Failed":"RateLimited"}',
    status: 1,
    stderr: '',
  })
})

test('Unknown: a handler that throws something else, logged with its stack', async () => {
  const r = call('get_forecast', { city: 'boom', days: 1, units: 'None' })
  assert.equal(r.status, 3)
  assert.equal(r.outcome, '{"Unknown":"the handler failed: Error: the forecast model is down"}')
  const p = peer()
  p.call('boom', W + 'get_forecast', { city: 'boom', days: 1, units: 'None' })
  assert.ok('Unknown' in (await p.reply('boom')))
  assert.equal(await p.end(), 0)
  assert.match(p.stderr, /threw: Error: the forecast model is down\n {4}at getForecast /)
})

test('Unknown: a WeatherError thrown by echo, whose error type is Never', () => {
  const r = call('echo', { value: 'fail' }, '--type-arg', 'T="Text"')
  assert.equal(r.status, 3)
  assert.equal(
    r.outcome,
    '{"Unknown":"the handler failed: it threw a value that is not of the declared error type: $: Never has no values [never]"}',
  )
})

test('generic echo with a call view: values of T cross as JSON, exactly', () => {
  const big = call('echo', '{"value": 123456789012345678901234567890}', '--type-arg', 'T="Int"')
  assert.equal(big.outcome, '{"Ok":123456789012345678901234567890}', big.stderr)
  const decimals = call('echo', '{"value": [1, 2.50, -1e-6]}', '--type-arg', 'T={"List":"Decimal"}')
  assert.equal(decimals.outcome, '{"Ok":[1,2.5,-0.000001]}', decimals.stderr)
  const record = call('echo', { value: { date: 'd', high_c: 1, low_c: 0, sky: { Cloudy: 5 } } }, '--type-arg', 'T={"Named":{"declaration":"2","args":[]}}')
  assert.equal(record.outcome, '{"Ok":{"date":"d","high_c":1,"low_c":0,"sky":{"Cloudy":5}}}', record.stderr)
})

function peer() {
  return new Peer('node', ['weather-tools/dist/main.js'], example)
}

test('NotRun: args that do not decode, and a Tool not served, never reach the handler', async () => {
  const p = peer()
  p.call('half', W + 'get_forecast', { city: 'boom', days: 1.5, units: 'None' })
  p.call('null-option', W + 'get_forecast', { city: 'boom', days: 1, units: null })
  p.call('nobody', W + 'nope', {})
  assert.deepEqual(await p.reply('half'), { NotRun: '$.params.args.days: expected an Int, found 1.5 [not-whole]' })
  assert.match((await p.reply('null-option')).NotRun, /^\$\.params\.args\.units: .*\[type\]$/)
  assert.match((await p.reply('nobody')).NotRun, /serves no Tool/)
  assert.equal(await p.end(), 0)
  // "boom" would have thrown and been logged: the handler never ran.
  assert.doesNotMatch(p.stderr, /forecast model is down/)
})

test('cancel: the handler\'s signal is aborted, and its reply is what it then returns', async () => {
  const p = peer()
  p.call('slow', W + 'get_forecast', { city: 'slow', days: 1, units: 'None' })
  p.call('quick', W + 'get_forecast', { city: 'Atlantis', days: 1, units: 'None' })
  // The slow call does not hold up the others.
  assert.ok('Failed' in (await p.reply('quick')))
  p.send({ method: 'cancel', params: { run: 'r', call: 'slow' } })
  assert.deepEqual(await p.reply('slow'), { Failed: { Unavailable: 'PT90S' } })
  assert.equal(await p.end(), 0)
})

test('a re-sent call does not run twice: no second reply while running, the same reply after', async () => {
  const p = peer()
  // While running: the handler waits for a cancel, so the re-send surely
  // arrives before it ends; one reply goes out when it does.
  const slow = { city: 'slow', days: 1, units: 'None' }
  p.call('s', W + 'get_forecast', slow)
  p.call('s', W + 'get_forecast', slow)
  p.call('marker', W + 'get_forecast', { city: 'Atlantis', days: 1, units: 'None' })
  await p.reply('marker')
  assert.equal(p.lines.filter((l) => l.includes('"call":"s"')).length, 0)
  p.send({ method: 'cancel', params: { run: 'r', call: 's' } })
  const [first] = await p.replies('s')
  // After: the same line again, and the handler does not run again (its
  // counter, the last reading of station_history, shows each run).
  p.call('s', W + 'get_forecast', slow)
  assert.equal((await p.replies('s', 2))[1], first)
  const args = { station: 1, since: '2026-01-01T00:00:00Z', window: 'PT1S', counts: [] }
  p.call('h', W + 'station_history', args)
  const [once] = await p.replies('h')
  p.call('h', W + 'station_history', args)
  assert.equal((await p.replies('h', 2))[1], once)
  p.call('other', W + 'station_history', args)
  const other = JSON.stringify(await p.reply('other'))
  const runs = (line) => Number(/,(\d+)\]\]\}/.exec(line)[1])
  assert.equal(runs(other), runs(once) + 1)
  assert.equal(await p.end(), 0)
  assert.equal(p.lines.filter((l) => l.includes('"call":"s"')).length, 2)
})

test('stdin\'s end: running calls still reply, then the process exits 0', async () => {
  const p = peer()
  p.call('slow', W + 'list_stations', { region: { name: 'slow', children: [] }, cursor: 'None' })
  p.call('atl', W + 'get_forecast', { city: 'Atlantis', days: 1, units: 'None' })
  await p.reply('atl')
  p.send({ method: 'cancel', params: { run: 'r', call: 'slow' } })
  const code = await p.end()
  assert.equal(code, 0)
  assert.ok('Ok' in (await p.reply('slow')))
})

test('stdout belongs to the protocol: console.log in a handler goes to stderr', async () => {
  const p = weatherScript(
    'flow-stdout-',
    `const fail = async () => { throw new Error('not this one') }
t.serve({ listing, tools }, [
  async (city) => {
    console.log('noise from', city)
    process.stdout.write('more noise\\n')
    throw new t.Failed({ case: 'RateLimited' })
  },
  fail,
  fail,
  async (value) => value,
])
`,
  )
  p.call('log', W + 'get_forecast', { city: 'Oslo', days: 1, units: 'None' })
  assert.deepEqual(await p.reply('log'), { Failed: 'RateLimited' })
  assert.equal(await p.end(), 0)
  for (const line of p.lines) assert.doesNotThrow(() => JSON.parse(line), line)
  assert.match(p.stderr, /noise from Oslo/)
  assert.match(p.stderr, /more noise/)
})
