'use strict'
// What a handler's context holds: {run, call, tool, signal} for every call,
// and for a generic call its types view, success schema and codecs, which
// are made when the handler first reads one (and are the same objects on
// every read after), own members in the order they always had. Served over
// MCP, where a generic Tool's T is json.Value.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { weatherScript } = require('./helpers.js')

const W = 'github.com/acme/weather@1.2.0/weather.flow.'

function server() {
  return weatherScript(
    'flow-context-',
    `const entries = JSON.parse(tools)
const seen = (context) => ({ keys: Object.keys(context), run: context.run, call: context.call, tool: context.tool, aborted: context.signal.aborted })
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
const stations = async (region, cursor, context) => ({ items: [], next: t.stringify(seen(context)) })
const handlers = entries.map((e) => (e.tool.endsWith('.echo') ? echo : e.tool.endsWith('.list_stations') ? stations : async () => { throw new Error('not called') }))
t.serve({ listing, tools }, handlers, { args: ['--mcp'] })
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

test('a generic call\'s context: its views made on first read, the same after, as before', async () => {
  const p = server()
  try {
    p.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })
    p.send({ method: 'notifications/initialized' })
    const result = await mcpCall(p, 1, 'echo', { value: [1, 2.5] })
    assert.notEqual(result.isError, true, JSON.stringify(result))
    const got = result.structuredContent.result
    assert.deepEqual(got.keys, ['run', 'call', 'tool', 'types', 'schema', 'codecs', 'signal'])
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

test('a call\'s context is {run, call, tool, signal}', async () => {
  const p = server()
  try {
    p.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } })
    p.send({ method: 'notifications/initialized' })
    const result = await mcpCall(p, 1, 'list_stations', { region: { name: 'n', children: [] }, cursor: 'None' })
    assert.notEqual(result.isError, true, JSON.stringify(result))
    const seen = JSON.parse(result.structuredContent.next)
    assert.deepEqual(seen.keys, ['run', 'call', 'tool', 'signal'])
    assert.equal(seen.tool, W + 'list_stations')
    assert.equal(seen.aborted, false)
  } finally {
    p.child.stdin.end()
    await p.exited
  }
})
