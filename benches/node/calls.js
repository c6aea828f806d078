// Calls per second through a Node Tool process (flow-gen --lang typescript,
// one `echo(text: Text) -> Text` Tool, compiled with tsc) vs the same tool
// served by the MCP TypeScript SDK (McpServer over stdio), with 1 and with 64
// calls outstanding, after a warm-up. `cat` echoing each line back bounds any
// line protocol on this machine. One client drives all three: it keeps N
// calls outstanding and counts reply lines.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { record, scaled } from './timing.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.join(here, '..', '..')
const TOOL = 'github.com/flow-toolkit/bench@0.1.0/bench.flow.echo'
const LISTING = {
  data: '0.1',
  tools: [{ tool: TOOL, doc: null, generic: [], params: [{ name: 'text', type: 'Text' }], ok: 'Text', err: 'Never' }],
  declarations: {},
}

const IMPLEMENTATION = `import type { CallContext } from "@flow/toolkit"

export async function echo(text: string, context: CallContext): Promise<string> {
  return text
}
`

const MCP_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'bench', version: '0.1.0' })
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}))
await server.connect(new StdioServerTransport())
`

/** Generates and compiles the Flow Tool package in a temporary folder. */
function buildFlowTool(dir) {
  const listing = path.join(dir, 'bench.tools.json')
  fs.writeFileSync(listing, JSON.stringify(LISTING))
  execFileSync(process.execPath, [path.join(repo, 'bindings-node', 'bin', 'flow-gen.js'), '--lang', 'typescript', listing, '--out', path.join(dir, 'bench-tools'), '--no-manifest'])
  fs.writeFileSync(path.join(dir, 'bench-tools', 'src', 'implementation.ts'), IMPLEMENTATION)
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'))
  execFileSync(process.execPath, [path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'bench-tools')])
  return path.join(dir, 'bench-tools', 'dist', 'main.js')
}

/**
 * Starts `command`, sends `handshake` lines (waiting for one reply each),
 * then `warmup` and `calls` requests keeping `outstanding` in flight.
 * Resolves with the measured calls per second.
 */
function drive(command, args, { request, handshake = [], after = [], warmup, calls, outstanding }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
    child.on('error', reject)
    let buffered = ''
    let phase = 0 // handshake lines answered
    let sent = 0
    let received = 0
    let start = 0n
    const total = warmup + calls
    const send = () => {
      let batch = ''
      while (sent < total && sent - received < outstanding) batch += request(sent++) + '\n'
      if (batch) child.stdin.write(batch)
    }
    const begin = () => {
      for (const line of after) child.stdin.write(line + '\n')
      send()
    }
    child.stdout.on('data', (chunk) => {
      buffered += chunk
      let at
      while ((at = buffered.indexOf('\n')) !== -1) {
        buffered = buffered.slice(at + 1)
        if (phase < handshake.length) {
          phase++
          if (phase < handshake.length) child.stdin.write(handshake[phase] + '\n')
          else begin()
          continue
        }
        received++
        if (received === warmup) start = process.hrtime.bigint()
        if (received === total) {
          const seconds = Number(process.hrtime.bigint() - start) / 1e9
          child.stdin.end()
          child.kill()
          resolve(calls / seconds)
          return
        }
      }
      send()
    })
    if (handshake.length) child.stdin.write(handshake[0] + '\n')
    else begin()
  })
}

const flowRequest = (i) =>
  `{"jsonrpc":"2.0","method":"call","params":{"run":"bench","call":"${i}","tool":"${TOOL}","args":{"text":"hello"}}}`
const mcpRequest = (i) =>
  `{"jsonrpc":"2.0","id":${i + 1},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`
const mcpHandshake = [
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}',
]
const mcpAfter = ['{"jsonrpc":"2.0","method":"notifications/initialized"}']

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-calls-'))
const flowMain = buildFlowTool(dir)
const mcpMain = path.join(here, 'mcp-server.mjs')
fs.writeFileSync(mcpMain, MCP_SERVER)

const warmup = scaled(2000, 500)
console.log(`\nCalls per second over stdio (one echo(text) Tool; warm-up ${warmup.toLocaleString('en')} calls)\n`)
console.log('| server | 1 outstanding | 64 outstanding |')
console.log('|---|---|---|')
const results = {}
for (const [id, name, command, args, options] of [
  ['flow', '@flow/toolkit (generated TypeScript Tool process)', process.execPath, [flowMain], { request: flowRequest }],
  ['mcp', 'MCP TypeScript SDK 1.32.2 (McpServer, stdio)', process.execPath, [mcpMain], { request: mcpRequest, handshake: mcpHandshake, after: mcpAfter }],
  ['cat', 'cat (a trivial line echo: the bound)', 'cat', [], { request: flowRequest }],
]) {
  const one = await drive(command, args, { ...options, warmup, calls: scaled(10_000, 2_000), outstanding: 1 })
  const many = await drive(command, args, { ...options, warmup, calls: scaled(50_000, 10_000), outstanding: 64 })
  results[name] = [one, many]
  record('node.calls', id, name, 'calls/s', one, { outstanding: 1 })
  record('node.calls', id, name, 'calls/s', many, { outstanding: 64 })
  console.log(`| ${name} | ${Math.round(one).toLocaleString('en')} | ${Math.round(many).toLocaleString('en')} |`)
}
const [flow, mcp] = Object.values(results)
console.log(`\n@flow/toolkit vs the MCP SDK: ${(flow[0] / mcp[0]).toFixed(2)}x at 1 outstanding (goal >= 1), ${(flow[1] / mcp[1]).toFixed(2)}x at 64 (goal >= 2.5)`)
fs.rmSync(dir, { recursive: true, force: true })
fs.rmSync(mcpMain, { force: true })
