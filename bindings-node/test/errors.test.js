'use strict'
// A handler fails by throwing its Tool's declared error value, or Failed with
// it: served on the weather listing by handlers written here, spoken to line
// by line. Whatever else is thrown (an Error, even one shaped like the error;
// a value that is not of the declared error type; a WeatherError from a Tool
// that declares none) is Unknown and logged to stderr.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { weatherScript } = require('./helpers.js')

const W = 'github.com/acme/weather@1.2.0/weather.flow.'

function serveScript() {
  return weatherScript(
    'flow-errors-',
    `const thrown = {
  'rate-limited': () => ({ case: 'RateLimited' }),
  'unknown-city': () => ({ case: 'UnknownCity', value: { query: 'Atlantis', suggestions: ['Athens'] } }),
  'unavailable': () => ({ case: 'Unavailable', value: t.Duration.fromSeconds(30) }),
  'failed': () => new t.Failed({ case: 'RateLimited' }),
  'not-encodable': () => ({ case: 'UnknownCity', value: { query: 5n, suggestions: [] } }),
  'a-string': () => 'oops',
  'undefined': () => undefined,
  'an-error': () => new Error('the model is down'),
  'an-error-shaped-like-it': () => Object.assign(new Error('shaped'), { case: 'RateLimited' }),
}
const fail = async (key) => { throw thrown[key]() }
t.serve({ listing, tools }, [
  async (city) => { throw thrown[city]() },
  async (region) => { throw thrown[region.name]() },
  fail,
  async (value) => { throw thrown[value]() },
])
`,
  )
}

const forecast = (city) => ({ city, days: 1, units: 'None' })

test('throwing the declared error value is Failed with exactly that value; other throws are Unknown', async () => {
  const p = serveScript()
  const cases = {
    'rate-limited': { Failed: 'RateLimited' },
    'unknown-city': { Failed: { UnknownCity: { query: 'Atlantis', suggestions: ['Athens'] } } },
    unavailable: { Failed: { Unavailable: 'PT30S' } },
    failed: { Failed: 'RateLimited' },
    'an-error': { Unknown: 'the handler failed: Error: the model is down' },
    'an-error-shaped-like-it': { Unknown: 'the handler failed: Error: shaped' },
  }
  for (const city of Object.keys(cases)) p.call(city, W + 'get_forecast', forecast(city))
  p.call('not-encodable', W + 'get_forecast', forecast('not-encodable'))
  p.call('a-string', W + 'get_forecast', forecast('a-string'))
  p.call('undefined', W + 'get_forecast', forecast('undefined'))
  // list_stations declares WeatherError too: the same value is its error.
  p.call('list', W + 'list_stations', { region: { name: 'rate-limited', children: [] }, cursor: 'None' })
  for (const [city, outcome] of Object.entries(cases)) assert.deepEqual(await p.reply(city), outcome, city)
  assert.deepEqual(await p.reply('list'), { Failed: 'RateLimited' })
  assert.match(
    (await p.reply('not-encodable')).Unknown,
    /^the handler failed: it threw a value that is not of the declared error type: \$\.value\.query: expected a Text .*\[encode\]$/,
  )
  // A primitive is never taken for the declared error (a stray `throw
  // undefined` would be a declared None where the type is an Option).
  assert.equal((await p.reply('a-string')).Unknown, 'the handler failed: it threw "oops"')
  assert.equal((await p.reply('undefined')).Unknown, 'the handler failed: it threw undefined')
  assert.equal(await p.end(), 0)
  // Failed is no fault and is not logged; every Unknown is, an Error with its stack.
  assert.doesNotMatch(p.stderr, /rate-limited|unknown-city|unavailable|"failed"/)
  assert.match(p.stderr, /\(run "r", call "an-error"\) threw: Error: the model is down\n {4}at /)
  assert.match(p.stderr, /call "an-error-shaped-like-it"\) threw: Error: shaped\n {4}at /)
  assert.match(p.stderr, /call "not-encodable"\): it threw a value that is not of the declared error type: \$\.value\.query/)
  assert.match(p.stderr, /call "a-string"\) threw: it threw "oops"/)
})

test('a WeatherError thrown by a Tool whose error type is Never is Unknown', async () => {
  const p = serveScript()
  const types = { bindings: [{ name: 'T', type: 'Text' }], params: [{ name: 'value', type: 'Text' }], ok: 'Text', err: 'Never', declarations: {} }
  p.call('echo', W + 'echo', { value: 'rate-limited' }, { schema: { type: 'string' }, types })
  assert.deepEqual(await p.reply('echo'), {
    Unknown: 'the handler failed: it threw a value that is not of the declared error type: $: Never has no values [never]',
  })
  assert.equal(await p.end(), 0)
  assert.match(p.stderr, /call "echo"\): it threw a value that is not of the declared error type/)
})
