'use strict'
// The shared vectors of tests/vectors (format in tests/vectors/README.md) run
// through the Node API. A decode case goes text -> JavaScript value -> text:
// the canonical text must be byte-identical to the vector's, so every value
// survives the trip through its JavaScript form exactly.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Types, parse, stringify, FlowError } = require('..')

const repo = path.join(__dirname, '..', '..')
const vectors = path.join(repo, 'tests', 'vectors')
const weather = fs.readFileSync(path.join(repo, 'tests', 'examples', 'weather.tools.json'))

function limitsOf(c) {
  if (c.limits === undefined) return undefined
  const out = {}
  for (const [k, v] of Object.entries({ maxBytes: c.limits.max_bytes, maxDepth: c.limits.max_depth, maxDigits: c.limits.max_digits })) {
    if (v !== undefined) out[k] = Number(v)
  }
  return out
}

function inputOf(c) {
  return c.input !== undefined ? c.input : Buffer.from(c.input_hex, 'hex')
}

/** Runs `run`; compares its outcome with the case's `error`, or returns it. */
function outcome(c, run) {
  if (c.error === undefined) return run()
  let thrown
  try {
    run()
  } catch (e) {
    thrown = e
  }
  assert.ok(thrown, `expected a refusal [${c.error.rule}] at ${c.error.path ?? '(any path)'}`)
  assert.ok(thrown instanceof FlowError, `expected a FlowError, got ${thrown}`)
  assert.equal(thrown.rule, c.error.rule, thrown.message)
  if (c.error.path !== undefined) assert.equal(thrown.path, c.error.path, thrown.message)
  return undefined
}

const runners = {
  decode(c, types) {
    // A type that cannot cross is refused when its codec is made, before any value.
    const text = outcome(c, () => {
      const codec = types.codec(stringify(c.type))
      return codec.encode(codec.decode(inputOf(c), limitsOf(c)))
    })
    if (c.canonical !== undefined) assert.equal(text, c.canonical)
  },
  listing(c) {
    const text = c.listing !== undefined ? stringify(c.listing) : c.listing_text
    outcome(c, () => new Types(text))
  },
  call_view(c, types) {
    outcome(c, () => types.checkCallView(c.tool, stringify(c.types), stringify(c.schema)))
  },
  signature(c, types) {
    if (c.error !== undefined) {
      outcome(c, () => types.fingerprint(c.tool))
      return
    }
    if (c.signature !== undefined) assert.equal(stringify(types.signature(c.tool)), c.signature)
    if (c.canonical_signature !== undefined) assert.equal(stringify(types.signature(c.tool, true)), c.canonical_signature)
    if (c.fingerprint !== undefined) assert.equal(types.fingerprint(c.tool), c.fingerprint)
  },
}

let count = 0
for (const name of fs.readdirSync(vectors).filter((f) => f.endsWith('.json')).sort()) {
  // Read with the toolkit's own exact parser: the files hold numbers that
  // JSON.parse would round.
  const file = parse(fs.readFileSync(path.join(vectors, name)))
  const types =
    file.listing === undefined ? new Types() : file.listing === 'weather' ? new Types(weather) : new Types(stringify(file.listing))
  test(name, async (t) => {
    for (const c of file.cases) {
      count += 1
      await t.test(c.name, () => runners[file.kind](c, types))
    }
  })
}

test('every vector ran', () => {
  assert.ok(count > 900, `only ${count} vectors ran`)
})
