'use strict'
// Decodes one hostile text (written by `flow-hostile text CASE FILE`) through
// @flow/toolkit's decoders, and prints as one JSON line what each refused it
// with and this process's memory: `rss` just before the file was read, and
// with each answer the `peak` (VmHWM) so far. Run in a process of its own, so
// that the peak is this text's. Usage: node decode.js FILE TYPE_TERM
const fs = require('node:fs')
const { Types, FlowError, canonicalize, parse } = require('@flow/toolkit')

function status(field) {
  const line = fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field))
  return Number(line.split(/\s+/)[1]) * 1024
}

const [file, term] = process.argv.slice(2)
const codec = new Types().codec(term)
const rss = status('VmRSS:')
const data = fs.readFileSync(file)
const refusals = []
// The typed decoder first: where only it refuses (base64), the peak after it
// is the refusal's, before the JSON-level ones accept the text.
for (const decode of [(d) => codec.decode(d), canonicalize, parse]) {
  try {
    decode(data)
    refusals.push({ accepted: true, peak: status('VmHWM:') })
  } catch (e) {
    if (!(e instanceof FlowError)) throw e
    refusals.push({ rule: e.rule, path: e.path, peak: status('VmHWM:') })
  }
}
console.log(JSON.stringify({ size: data.length, rss, refusals }))
