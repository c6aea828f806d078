// Exact parsing of the 20,000-record corpus: @flow/toolkit's parse (bigint
// and Decimal, Flow's JSON rules) vs lossless-json (LosslessNumber objects)
// vs JSON.parse (doubles: lossy). Also typed decoding at List<Reading>.
import { parse as losslessParse } from 'lossless-json'
import { parse, Types } from '@flow/toolkit'
import { corpus, LISTING } from './corpus.js'
import { header, medianMs, QUICK, record, row, RUNS } from './timing.js'

const text = corpus(20_000)
const bytes = Buffer.from(text)
const types = new Types(LISTING)
const readings = types.codec({ List: { Named: { declaration: '1', args: [] } } })

header(`Parsing the corpus (20,000 records, ${bytes.length.toLocaleString('en')} bytes), medians of ${RUNS} runs`)
const flow = medianMs(() => parse(bytes))
row('@flow/toolkit parse (exact: bigint, Decimal)', flow, bytes.length)
const flowText = medianMs(() => parse(text))
row('@flow/toolkit parse, from a string', flowText, bytes.length)
const lossless = medianMs(() => losslessParse(text))
row('lossless-json parse (exact: LosslessNumber)', lossless, bytes.length)
const json = medianMs(() => JSON.parse(text))
row('JSON.parse (lossy: doubles)', json, bytes.length)
const typed = medianMs(() => readings.decode(bytes))
row('@flow/toolkit Codec.decode at List<Reading> (typed)', typed, bytes.length)
for (const [id, label, ms] of [
  ['flow.bytes', '@flow/toolkit parse (exact: bigint, Decimal)', flow],
  ['flow.string', '@flow/toolkit parse, from a string', flowText],
  ['lossless', 'lossless-json parse (exact: LosslessNumber)', lossless],
  ['json', 'JSON.parse (lossy: doubles)', json],
  ['flow.decode', '@flow/toolkit Codec.decode at List<Reading> (typed)', typed],
]) {
  record('node.parse', id, label, 'ms', ms, { bytes: bytes.length })
}
console.log(`\n@flow/toolkit parse: ${(lossless / flow).toFixed(1)}x faster than lossless-json (goal 5x); ${(flow / json).toFixed(2)}x the time of JSON.parse (goal at most 1.0x)`)
const serial = '123456789012345678901234567890'
console.log(`${serial} read by JSON.parse: ${JSON.parse(serial)}; by @flow/toolkit: ${parse(serial)}`)

// The same two at other sizes. Each parse's garbage is left to V8's young
// generation (16 MiB semi-spaces in Node 20): a document built in fewer bytes
// than that is dropped before a scavenge has to copy it, a larger one is
// copied while it is built. Ours (bigints and Decimals, where JSON.parse has
// doubles) crosses that line near 21,000 records, JSON.parse's near 28,000,
// so between the two the ratio is at its worst. Not in a quick run.
if (!QUICK) {
  console.log(`\nparse and JSON.parse by corpus size, medians of ${RUNS} runs\n`)
  console.log('| records | bytes | @flow/toolkit parse | JSON.parse | parse / JSON.parse |')
  console.log('|---|---|---|---|---|')
  for (const records of [5_000, 10_000, 15_000, 25_000, 30_000, 40_000]) {
    const sized = corpus(records)
    const sizedBytes = Buffer.from(sized)
    const ours = medianMs(() => parse(sizedBytes))
    const theirs = medianMs(() => JSON.parse(sized))
    console.log(`| ${records.toLocaleString('en')} | ${sizedBytes.length.toLocaleString('en')} | ${ours.toFixed(1)} ms | ${theirs.toFixed(1)} ms | ${(ours / theirs).toFixed(2)}x |`)
    record('node.parse', `flow.bytes.${records}`, `@flow/toolkit parse, ${records.toLocaleString('en')} records`, 'ms', ours, { bytes: sizedBytes.length })
    record('node.parse', `json.${records}`, `JSON.parse, ${records.toLocaleString('en')} records`, 'ms', theirs, { bytes: sizedBytes.length })
  }
}
