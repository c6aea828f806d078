'use strict'
// A host that stops reading: the Node runtime holds a bounded number of calls
// (the core's in-flight bound, 1,024; a call past it is answered NotRun at
// once), and once its replies fill the pipe its writes wait and it stops
// reading stdin, so the pipe pushes back instead of replies piling up in
// memory; once the host reads again, every call is answered exactly once.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const { example, buildExample } = require('./helpers.js')

const TOOL = 'github.com/acme/weather@1.2.0/weather.flow.list_stations'
const CALLS = 20000

before(() => buildExample())

function rssKib(pid) {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Number(line.split(/\s+/)[1])
}

test('a host that stops reading is pushed back on and loses no call', async () => {
  const child = spawn('node', ['weather-tools/dist/main.js'], { cwd: example, stdio: ['pipe', 'pipe', 'ignore'] })
  try {
    child.stdout.pause()
    let written = 0
    let blocked = false
    // Write until the pipe refuses more: the Tool stopped reading.
    for (; written < CALLS; written++) {
      const params = { run: 'r', call: `c${written}`, tool: TOOL, args: { region: { name: 'Alps', children: [] }, cursor: 'None' } }
      if (!child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'call', params }) + '\n')) {
        // Drained means the Tool read more; not drained within a second of
        // trying again means it stopped.
        const drained = await new Promise((resolve) => {
          const timer = setTimeout(() => resolve(false), 1000)
          child.stdin.once('drain', () => { clearTimeout(timer); resolve(true) })
        })
        if (!drained) { blocked = true; written++; break }
      }
    }
    assert.ok(blocked, `every one of ${written} calls was taken while nobody read a reply`)
    assert.ok(written < CALLS / 2, `${written} calls taken`)
    assert.ok(rssKib(child.pid) < 256 * 1024)
    // Read again, and send the rest.
    const counts = new Map()
    let buffered = ''
    const done = new Promise((resolve) => child.stdout.on('end', resolve))
    child.stdout.on('data', (chunk) => {
      buffered += chunk
      let end
      while ((end = buffered.indexOf('\n')) >= 0) {
        const call = JSON.parse(buffered.slice(0, end)).params.call
        counts.set(call, (counts.get(call) || 0) + 1)
        buffered = buffered.slice(end + 1)
      }
    })
    child.stdout.resume()
    for (; written < CALLS; written++) {
      const params = { run: 'r', call: `c${written}`, tool: TOOL, args: { region: { name: 'Alps', children: [] }, cursor: 'None' } }
      if (!child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'call', params }) + '\n')) {
        await new Promise((resolve) => child.stdin.once('drain', resolve))
      }
    }
    child.stdin.end()
    await done
    assert.equal(counts.size, CALLS)
    assert.deepEqual([...new Set(counts.values())], [1])
  } finally {
    child.kill('SIGKILL')
  }
})
