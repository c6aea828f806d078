'use strict'
// Hostile texts through @flow/toolkit's decoders (issue 8, item 4): each case
// of flow-hostile's catalog (testkit/src/hostile.rs: 16 MiB + 1 byte, 129
// deep, 1e5000, -1e-5000, 10^6 duplicate keys, huge base64, invalid UTF-8, a
// lone surrogate) is refused with its rule by Codec.decode and, where JSON
// reading itself refuses it, by canonicalize and parse; and the decoding
// process's peak memory over its resident set before the text was read stays
// within the case's bound. Each case runs in a process of its own
// (tests/hostile/decode.js). Nothing here is timed.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { repo } = require('./helpers.js')

// The fixed part of each bound: V8's heap pages and Node's buffers.
const BASELINE = 4 * 1024 * 1024

function binary(name) {
  const target = process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target')
  for (const profile of ['debug', 'release']) {
    const file = path.join(target, profile, name)
    if (fs.existsSync(file)) return file
  }
  throw new Error(`${name} is not built: cargo build -p flow-testkit (make test does)`)
}

const hostile = binary('flow-hostile')
const cases = execFileSync(hostile, ['cases'], { encoding: 'utf8' }).trim().split('\n').map((l) => l.split(' '))

for (const [name, rule, term, level, factor] of cases) {
  test(`${name} is refused as ${rule} in bounded memory`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-hostile-'))
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
