'use strict'
// Hostile input to Node (issue 8, item 4): each case of flow-hostile's
// catalog (testkit/src/hostile.rs: 16 MiB + 1 byte, 129 deep, 1e5000,
// -1e-5000, 10^6 duplicate keys, huge base64, invalid UTF-8, a lone
// surrogate) is refused with its rule by Codec.decode and, where JSON reading
// itself refuses it, by canonicalize and parse; and as a call's args into a
// generated TypeScript Tool process it is NotRun with its rule. The reading
// process's peak memory over its resident set before the input stays within
// the case's bound. Each case runs in processes of its own
// (tests/hostile/decode.js; flow-hostile server). Nothing here is timed.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { repo, tsc, binary, scratchDir } = require('./helpers.js')

// The fixed part of each bound: V8's heap pages and Node's buffers.
const BASELINE = 4 * 1024 * 1024

const hostile = binary('flow-hostile')
// NAME RULE TYPE json|typed BOUND-FACTOR WHAT, tab-separated.
const cases = execFileSync(hostile, ['cases'], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split('\t'))

for (const [name, rule, term, level, factor] of cases) {
  test(`${name} is refused as ${rule} in bounded memory`, () => {
    const dir = scratchDir('flow-hostile-')
    const file = path.join(dir, name)
    execFileSync(hostile, ['text', name, file])
    const out = execFileSync(process.execPath, [path.join(repo, 'tests', 'hostile', 'decode.js'), file, term], { encoding: 'utf8' })
    fs.rmSync(dir, { recursive: true })
    const report = JSON.parse(out)
    const [typed, ...asJson] = report.refusals
    assert.equal(typed.rule, rule, out)
    for (const answer of asJson) assert.equal(answer.rule, level === 'json' ? rule : undefined, out)
    const bound = Number(factor) * report.size + BASELINE
    for (const answer of report.refusals.filter((a) => a.rule !== undefined)) {
      const cost = answer.peak - report.rss
      assert.ok(cost <= bound, `${name}: ${report.size} bytes cost ${cost} bytes of peak memory, over ${bound}`)
    }
  })
}

// A generated TypeScript Tool package for the hostile listing, compiled once;
// its handlers are the scaffold's stubs, which no refused call reaches.
let tool
function hostileTool() {
  if (tool) return tool
  const dir = scratchDir('flow-hostile-ts-')
  const listing = path.join(dir, 'hostile.tools.json')
  execFileSync(hostile, ['listing', listing])
  const out = path.join(dir, 'hostile-tools')
  execFileSync(process.execPath, [path.join(repo, 'bindings-node', 'bin', 'flow-gen.js'), '--lang', 'typescript', listing, '--out', out, '--no-manifest'], { stdio: 'pipe' })
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(out, 'node_modules'))
  execFileSync(process.execPath, [tsc, '-p', out])
  tool = path.join(out, 'dist', 'main.js')
  return tool
}

for (const [name, rule, , , factor] of cases) {
  test(`${name} as a call's args is NotRun by a TypeScript Tool in bounded memory`, () => {
    const out = execFileSync(hostile, ['server', name, '--', process.execPath, hostileTool()], { encoding: 'utf8' })
    const report = JSON.parse(out)
    assert.equal(report.outcome, 'NotRun', report.reason)
    assert.ok(report.reason.endsWith(`[${rule}]`), report.reason.slice(0, 300))
    const cost = report.peak - report.baseline
    const bound = Number(factor) * report.size + BASELINE
    assert.ok(cost <= bound, `${name}: ${report.size} bytes cost the Tool process ${cost} bytes of peak memory, over ${bound}`)
  })
}
