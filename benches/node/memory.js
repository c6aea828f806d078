// Peak memory of one parse of the 20,000-record corpus, as a multiple of the
// input's size: @flow/toolkit's parse and typed decode beside JSON.parse and
// lossless-json.
//
// Each measurement is a fresh process (`--child NAME FILE`, run with
// --expose-gc) that reads the corpus, loads everything and parses a small
// text first, then parses the corpus once. Its peak is the process's
// high-water resident size after the parse (`maxRSS`) minus its resident size
// just before it: V8's heap, the native module's buffers and the result
// alike. The result is the heap and external memory still live after a full
// collection with the result held. Fresh processes, because a high-water mark
// cannot be reset.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as losslessParse } from 'lossless-json'
import { parse, Types } from '@flow/toolkit'
import { corpus, LISTING } from './corpus.js'
import { record, scaled } from './timing.js'

const GOAL = 2.0 // peak beyond the result at most twice the input's size
const DECODERS = {
  'flow.bytes': '@flow/toolkit parse (exact: bigint, Decimal)',
  'flow.decode': '@flow/toolkit Codec.decode at List<Reading> (typed)',
  lossless: 'lossless-json parse (exact: LosslessNumber)',
  json: 'JSON.parse (lossy: doubles)',
}

function decoder(name) {
  if (name === 'flow.bytes') return (bytes) => parse(bytes)
  if (name === 'flow.decode') {
    const readings = new Types(LISTING).codec({ List: { Named: { declaration: '1', args: [] } } })
    return (bytes) => readings.decode(bytes)
  }
  if (name === 'lossless') return (bytes) => losslessParse(bytes.toString('utf8'))
  return (bytes) => JSON.parse(bytes.toString('utf8'))
}

/** Live memory after a full collection: V8's heap and what it holds outside it. */
function live() {
  globalThis.gc()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

function child(name, file) {
  const bytes = fs.readFileSync(file)
  const decode = decoder(name)
  decode(Buffer.from('[]'))
  const liveBefore = live()
  const before = process.memoryUsage.rss()
  const result = decode(bytes)
  const peak = process.resourceUsage().maxRSS * 1024 - before
  const resultBytes = live() - liveBefore
  if (result.length !== 20_000) throw new Error(`${name} read ${result.length} records`)
  console.log(JSON.stringify({ peak, result: resultBytes }))
}

function measure(name, file) {
  const here = fileURLToPath(import.meta.url)
  const out = execFileSync(process.execPath, ['--expose-gc', here, '--child', name, file], {
    cwd: path.dirname(here),
    encoding: 'utf8',
  })
  return JSON.parse(out)
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function main() {
  if (process.argv[2] === '--child') {
    child(process.argv[3], process.argv[4])
    return
  }
  const bytes = Buffer.from(corpus(20_000))
  const runs = scaled(3, 1)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-bench-memory-'))
  const file = path.join(dir, 'corpus.json')
  fs.writeFileSync(file, bytes)
  const done = Object.fromEntries(Object.keys(DECODERS).map((name) => [name, []]))
  try {
    for (let round = 0; round < runs; round++) {
      for (const name of Object.keys(DECODERS)) done[name].push(measure(name, file))
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const mib = 2 ** 20
  console.log(`corpus: 20,000 records, ${bytes.length.toLocaleString('en')} bytes; median of ${runs} fresh processes each, in turns`)
  console.log('| decoder | peak | result | peak beyond the result |')
  console.log('|---|---|---|---|')
  for (const [name, label] of Object.entries(DECODERS)) {
    const peak = median(done[name].map((r) => r.peak))
    const result = median(done[name].map((r) => r.result))
    const times = (peak - result) / bytes.length
    const verdict = times <= GOAL ? 'met' : 'not met'
    console.log(
      `| ${label} | ${(peak / mib).toFixed(1)} MiB (${(peak / bytes.length).toFixed(2)}x input) | ${(result / mib).toFixed(1)} MiB | ` +
        `${((peak - result) / mib).toFixed(1)} MiB (${times.toFixed(2)}x input; goal <= ${GOAL}x: ${verdict}) |`,
    )
    record('node.memory', name, label, 'x input', times, { bytes: bytes.length, peak_bytes: peak, result_bytes: result })
  }
}

main()
