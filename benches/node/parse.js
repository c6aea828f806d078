// Exact parsing of the 20,000-record corpus: @flow/toolkit's parse (bigint
// and Decimal, Flow's JSON rules) vs lossless-json (LosslessNumber objects)
// vs JSON.parse (doubles: lossy). Also typed decoding at List<Reading>.
import { parse as losslessParse } from 'lossless-json'
import { parse, Types } from '@flow/toolkit'
import { corpus, LISTING } from './corpus.js'
import { header, medianMs, record, row, RUNS } from './timing.js'

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
console.log(`\n@flow/toolkit parse: ${(lossless / flow).toFixed(1)}x faster than lossless-json (goal 3x); ${(flow / json).toFixed(2)}x the time of JSON.parse (goal within 1.6x)`)
const serial = '123456789012345678901234567890'
console.log(`${serial} read by JSON.parse: ${JSON.parse(serial)}; by @flow/toolkit: ${parse(serial)}`)
