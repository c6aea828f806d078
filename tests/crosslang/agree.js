'use strict'
// The Node checker of the cross-language agreement run (`flow-crosslang`;
// testkit/src/agreement.rs describes the files): decodes and re-encodes every
// value, and canonicalizes every JSON text, through @flow/toolkit's public
// API only. Usage: node agree.js DIR
const fs = require('node:fs')
const path = require('node:path')
const readline = require('node:readline')
const { Types, FlowError, canonicalize, parse, stringify } = require('@flow/toolkit')

// One answer: the text, the refusal's rule and path, or why it crashed
// (anything but a FlowError is a crash: a binding bug).
function attempt(f) {
  try {
    return { text: f() }
  } catch (e) {
    if (e instanceof FlowError) return { rule: e.rule, path: e.path }
    return { crash: `${e && e.name}: ${e && e.message}` }
  }
}

async function* lines(file) {
  const input = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })
  for await (const line of input) yield line
}

async function values(dir) {
  const out = fs.openSync(path.join(dir, 'values.node.jsonl'), 'w')
  for await (const line of lines(path.join(dir, 'values.jsonl'))) {
    const c = JSON.parse(line)
    let results = []
    let codec
    try {
      codec = new Types(c.listing).codec(c.type)
    } catch (e) {
      results = new Array(3 * c.texts.length).fill({ crash: `codec: ${e.name}: ${e.message}` })
    }
    if (codec) {
      for (const text of c.texts) {
        results.push(attempt(() => codec.encode(codec.decode(text))))
        results.push(attempt(() => stringify(codec.toJson(codec.fromJson(parse(text))))))
        results.push(attempt(() => canonicalize(text)))
      }
    }
    fs.writeSync(out, JSON.stringify({ results }) + '\n')
  }
  fs.closeSync(out)
}

async function texts(dir) {
  const value = new Types().codec('json.Value')
  const out = fs.openSync(path.join(dir, 'json.node.jsonl'), 'w')
  for await (const line of lines(path.join(dir, 'json.jsonl'))) {
    const data = Buffer.from(JSON.parse(line).hex, 'hex')
    // As a string too where the bytes are UTF-8 (no string holds the rest).
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
    let asString = data
    try {
      asString = decoder.decode(data)
    } catch {}
    const results = [
      attempt(() => canonicalize(data)),
      attempt(() => canonicalize(asString)),
      attempt(() => stringify(parse(data))),
      attempt(() => value.encode(value.decode(data))),
    ]
    fs.writeSync(out, JSON.stringify({ results }) + '\n')
  }
  fs.closeSync(out)
}

async function main() {
  const dir = process.argv[2]
  await values(dir)
  await texts(dir)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
