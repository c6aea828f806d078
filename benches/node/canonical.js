// Canonical text of the corpus: @flow/toolkit (exact numbers, code-point key
// order, Flow's canonical form) vs the JCS package `canonicalize` (RFC 8785:
// numbers through doubles, keys by UTF-16 units), which needs JSON.parse first.
import canonicalizeJcs from 'canonicalize'
import { canonicalize, parse, stringify } from '@flow/toolkit'
import { corpus } from './corpus.js'
import { header, medianMs, record, row, RUNS } from './timing.js'

const text = corpus(20_000)
const bytes = Buffer.from(text)
const flowValue = parse(bytes)
const jsValue = JSON.parse(text)

header(`Canonical text of the corpus (${bytes.length.toLocaleString('en')} bytes), medians of ${RUNS} runs`)
const textToText = medianMs(() => canonicalize(bytes))
row('@flow/toolkit canonicalize(text)', textToText, bytes.length)
const jcsText = medianMs(() => canonicalizeJcs(JSON.parse(text)))
row('canonicalize(JSON.parse(text)) (lossy)', jcsText, bytes.length)
const fromValue = medianMs(() => stringify(flowValue))
row('@flow/toolkit stringify(value) (a parsed JS value)', fromValue, bytes.length)
const jcsValue = medianMs(() => canonicalizeJcs(jsValue))
row('canonicalize(value) (lossy)', jcsValue, bytes.length)
for (const [id, label, ms] of [
  ['flow.text', '@flow/toolkit canonicalize(text)', textToText],
  ['jcs.text', 'canonicalize(JSON.parse(text)) (lossy)', jcsText],
  ['flow.value', '@flow/toolkit stringify(value)', fromValue],
  ['jcs.value', 'canonicalize(value) (lossy)', jcsValue],
]) {
  record('node.canonical', id, label, 'ms', ms, { bytes: bytes.length })
}
console.log(`\ntext to text: @flow/toolkit ${(jcsText / textToText).toFixed(1)}x faster; from a JS value: ${(jcsValue / fromValue).toFixed(2)}x`)
const ours = canonicalize(text)
const theirs = canonicalizeJcs(JSON.parse(text))
console.log(`outputs equal: ${ours === theirs} (the JCS text rounds every 30-digit serial: ${theirs.match(/"serial":[^,]+/)[0]} vs ${ours.match(/"serial":[^,]+/)[0]})`)
