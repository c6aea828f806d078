'use strict'
// The example weather Tools (examples/typescript) served to MCP clients with
// `--mcp`, driven by the official clients through tests/mcp/clients/drive.py
// and its plan tests/mcp/clients/plans/typescript-weather.json: the Python
// SDK's Client in both eras and the TypeScript SDK's Client with
// StdioClientTransport. drive.py checks every result, the era, the cancel and
// the lines both ways (see its doc); the clients come from `make mcp-servers`.
// A usage error is the runtime's own: anything but `--mcp` exits 2.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { repo, example, buildExample } = require('./helpers.js')

const python = path.join(repo, '.venv-mcp', 'bin', 'python')
const main = path.join(example, 'weather-tools', 'dist', 'main.js')

before(() => {
  for (const [file, what] of [
    [python, "the MCP Python SDK's venv"],
    [path.join(repo, 'tests', 'mcp', 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'the MCP TypeScript SDK'],
  ]) {
    assert.ok(fs.existsSync(file), `${file} is missing: ${what} is installed by \`make mcp-servers\` (run it from the repository root)`)
  }
  buildExample()
})

for (const client of ['python-auto', 'python-legacy', 'typescript']) {
  test(`the ${client} client lists and calls every Tool`, () => {
    const plan = path.join('tests', 'mcp', 'clients', 'plans', 'typescript-weather.json')
    const r = spawnSync(python, [path.join('tests', 'mcp', 'clients', 'drive.py'), client, plan, '--', process.execPath, main, '--mcp'], {
      cwd: repo,
      encoding: 'utf8',
    })
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`)
    assert.match(r.stdout, new RegExp(`^ok: ${client} typescript-weather.json`))
  })
}

test('an argument other than --mcp is a usage error', () => {
  const r = spawnSync(process.execPath, [main, '--mpc'], { encoding: 'utf8', input: '' })
  assert.equal(r.status, 2)
  assert.match(r.stderr, /^not understood: --mpc\nusage: TOOL \[--mcp\]/)
})
