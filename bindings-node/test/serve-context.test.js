'use strict'
// What a handler's context holds: run, call, tool and signal for every call
// (the signal made when first read, aborted already when the call was
// cancelled before), and for a generic call its types view, success schema
// and codecs, made when the handler first reads one and the same objects on
// every read after. Served over MCP, where a generic Tool's T is json.Value,
// and over the Flow protocol for a cancel.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { weatherScript } = require('./helpers.js')

const W = 'github.com/acme/weather@1.2.0/weather.flow.'

function server(args = ['--mcp']) {
  return weatherScript(
    'flow-context-',
    `const entries = JSON.parse(tools)
const seen = (context) => ({ keys: Object.keys(context), run: context.run, call: context.call, tool: context.tool, aborted: context.signal.aborted, same: context.signal === context.signal && context.signal instanceof AbortSignal })
const echo = async (value, context) => {
  const first = seen(context)
  const c = context.codecs
  return {
    ...first,
    types: context.types,
    schema: context.schema,
    same: context.types === context.types && context.codecs === c && context.schema === context.schema,
    ok: c.ok.type,
    err: c.err.type,
    params: c.params.map((p) => p.type),
    bindings: Object.fromEntries(Object.entries(c.bindings).map(([k, v]) => [k, v.type])),
    decoded: t.stringify(c.ok.decode('[1, 2.50, {"b": 2, "a": 1}]')),
    value,
  }
}
const stations = async (region, cursor, context) => {
  if (region.name === 'late') {
    // Read the signal only once the cancel has surely come.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const signal = context.signal
    return { items: [], next: t.stringify({ aborted: signal.aborted, reason: signal.reason && signal.reason.name }) }
  }
  return { items: [], next: t.stringify(seen(context)) }
}
const handlers = entries.map((e) => (e.tool.endsWith('.echo') ? echo : e.tool.endsWith('.list_stations') ? stations : async () => { throw new Error('not called') }))
t.serve({ listing, tools }, handlers, { args: ${JSON.stringify(args)} })
`,
  )
}

async function mcpCall(p, id, name, args) {
  p.send({ id, method: 'tools/call', params: { name, arguments: args } })
  for (;;) {
    const line = p.lines.find((l) => JSON.parse(l).id === id)
    if (line) return JSON.parse(line).result
    await new Promise((resolve) => p.waiters.push(resolve))
  }
}

test('a generic call\'s context: its views made on first read, the same objects after', async () => {
  const p = server()
  try {
    p.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })
    p.send({ method: 'notifications/initialized' })
    const result = await mcpCall(p, 1, 'echo', { value: [1, 2.5] })
    assert.notEqual(result.isError, true, JSON.stringify(result))
    const got = result.structuredContent.result
    assert.deepEqual(got.keys, ['run', 'call', 'tool'])
    assert.equal(got.tool, W + 'echo')
    assert.equal(got.aborted, false)
    assert.equal(typeof got.run, 'string')
    assert.equal(typeof got.call, 'string')
    assert.deepEqual(got.types, {
      bindings: [{ name: 'T', type: 'json.Value' }],
      declarations: {},
      err: 'Never',
      ok: 'json.Value',
      params: [{ name: 'value', type: 'json.Value' }],
    })
    assert.deepEqual(got.schema, {})
    assert.equal(got.same, true)
    assert.equal(got.ok, '"json.Value"')
    assert.equal(got.err, '"Never"')
    assert.deepEqual(got.params, ['"json.Value"'])
    assert.deepEqual(got.bindings, { T: '"json.Value"' })
    // The ok codec decodes at the call's concrete type: exact, canonical.
    assert.equal(got.decoded, '[1,2.5,{"a":1,"b":2}]')
    assert.deepEqual(got.value, [1, 2.5])
  } finally {
    p.child.stdin.end()
    await p.exited
  }
})

test('a call\'s context: run, call, tool, and one signal', async () => {
  const p = server()
  try {
    p.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })
    p.send({ method: 'notifications/initialized' })
    const result = await mcpCall(p, 1, 'list_stations', { region: { name: 'n', children: [] }, cursor: 'None' })
    assert.notEqual(result.isError, true, JSON.stringify(result))
    const seen = JSON.parse(result.structuredContent.next)
    assert.deepEqual(seen.keys, ['run', 'call', 'tool'])
    assert.equal(seen.same, true)
    assert.equal(seen.tool, W + 'list_stations')
    assert.equal(seen.aborted, false)
  } finally {
    p.child.stdin.end()
    await p.exited
  }
})

test('a call cancelled before its handler reads the signal gets it aborted, with the reason', async () => {
  const p = server([])
  try {
    p.call('late', W + 'list_stations', { region: { name: 'late', children: [] }, cursor: 'None' })
    // Calls reach JavaScript in order: once the next is answered, the late
    // one's handler has started (a cancel before that would find it waiting
    // for the event loop, and answer it NotRun).
    p.call('next', W + 'list_stations', { region: { name: 'Alps', children: [] }, cursor: 'None' })
    await p.replies('next')
    p.send({ method: 'cancel', params: { run: 'r', call: 'late' } })
    const line = (await p.replies('late'))[0]
    const ok = JSON.parse(line).params.outcome.Ok
    assert.ok(ok, line)
    assert.deepEqual(JSON.parse(ok.next.Some ?? ok.next), { aborted: true, reason: 'CancelledError' })
  } finally {
    p.child.stdin.end()
    await p.exited
  }
})
