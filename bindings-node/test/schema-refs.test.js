'use strict'
// Every `$ref` of every schema the project generates resolves with ajv
// (JSON Schema 2020-12), as users run it, with the schema as written
// (decisions.md section 4: a `$ref` is a URI reference). The schemas: the
// signature and call-view vectors, every Tool signature of every listing in
// the vectors, the examples and the hostile fixtures (both forms), and the
// describe.json of every generated package (bindings-python/tests checks them
// with python-jsonschema too).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const Ajv2020 = require('ajv/dist/2020')
const { Types, parse, stringify, FlowError } = require('..')

const repo = path.join(__dirname, '..', '..')
const vectors = path.join(repo, 'tests', 'vectors')
const weather = fs.readFileSync(path.join(repo, 'tests', 'examples', 'weather.tools.json'), 'utf8')
const read = (file) => fs.readFileSync(file, 'utf8')
const json = (text) => JSON.parse(text)

const listings = [
  ...fs.readdirSync(path.join(repo, 'tests', 'examples')).map((f) => path.join(repo, 'tests', 'examples', f)),
  ...fs.readdirSync(path.join(repo, 'tests', 'mcp')).filter((f) => f.endsWith('.tools.json')).map((f) => path.join(repo, 'tests', 'mcp', f)),
  path.join(__dirname, 'fixtures', 'hostile.tools.json'),
].filter((f) => f.endsWith('.tools.json'))

// The describe.json every generated package serves from (src/metadata.ts
// imports TypeScript's; Python's and Rust's are the same bytes for the same listing).
const samples = path.join(repo, 'generated-samples')
const packageDescribe = [
  ...fs.readdirSync(samples, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((lang) =>
    fs.readdirSync(path.join(samples, lang.name)).flatMap((name) =>
      [path.join(samples, lang.name, name, 'describe.json'), path.join(samples, lang.name, name, 'src', 'describe.json')])),
  path.join(repo, 'examples', 'python', 'weather_tools', 'describe.json'),
  path.join(repo, 'examples', 'typescript', 'weather-tools', 'src', 'describe.json'),
].filter((file) => fs.existsSync(file))

function collect() {
  const out = []
  const add = (where, signature) => {
    signature.params.forEach(([name, schema]) => out.push([`${where}/params/${name}`, schema]))
    out.push([`${where}/ok`, signature.ok], [`${where}/err`, signature.err])
  }
  const sources = listings.map((file) => [path.basename(file), read(file)])
  for (const name of fs.readdirSync(vectors).filter((f) => f.endsWith('.json')).sort()) {
    const file = json(read(path.join(vectors, name)))
    for (const c of file.cases) {
      for (const member of ['signature', 'canonical_signature']) {
        if (c[member] !== undefined) add(`${name}/${c.name}/${member}`, json(c[member]))
      }
      if (file.kind === 'call_view' && c.ok) out.push([`${name}/${c.name}/schema`, c.schema])
    }
    if (file.listing === 'weather') sources.push([name, weather])
    else if (file.listing !== undefined) sources.push([name, JSON.stringify(file.listing)])
  }
  for (const [name, text] of sources) {
    const types = new Types(text)
    for (const tool of json(text).tools) {
      for (const stripped of [false, true]) {
        let signature
        try {
          signature = types.signature(tool.tool, stripped)
        } catch (e) {
          // Tools the vectors hold because they cannot be served.
          assert.ok(e instanceof FlowError && ['cannot-cross', 'not-servable'].includes(e.rule), String(e))
          continue
        }
        add(`${name}/${tool.tool}/${stripped ? 'canonical' : 'describe'}`, json(stringify(signature)))
      }
    }
  }
  for (const file of packageDescribe) {
    for (const entry of json(read(file)).tools) add(`${path.relative(repo, file)}/${entry.tool}`, entry.signature)
  }
  // The same schema from several sources is checked once.
  const seen = new Set()
  return out.filter(([, schema]) => {
    const text = JSON.stringify(schema)
    return !seen.has(text) && seen.add(text)
  })
}

function* refs(schema) {
  if (Array.isArray(schema)) {
    for (const item of schema) yield* refs(item)
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref') yield value
      else if (key === '$defs' || key === 'properties') for (const member of Object.values(value)) yield* refs(member)
      else yield* refs(value)
    }
  }
}

/** ajv as a user sets it up: 2020-12, strict, formats and `$param` known. */
function ajv() {
  const a = new Ajv2020({ formats: { 'date-time': true, duration: true } })
  a.addKeyword('$param')
  return a
}

const schemas = collect()

test('the schemas include keys a fragment must encode', () => {
  const texts = schemas.map(([, s]) => JSON.stringify(s))
  assert.ok(texts.length > 100, `only ${texts.length} schemas`)
  assert.ok(texts.some((t) => t.includes('%3C')), 'no instantiated generic key')
  assert.ok(texts.some((t) => t.includes('%25') && t.includes('%C3') && t.includes('%20')), 'no key with %, non-ASCII and a space')
  assert.ok(
    read(path.join(repo, 'examples', 'typescript', 'weather-tools', 'src', 'describe.json')).includes('%3C'),
    'the TypeScript example\'s describe.json holds list_stations',
  )
})

test('every $ref resolves to its own $defs entry', () => {
  schemas.forEach(([where, schema], i) => {
    const a = ajv()
    const id = `urn:flow:schema:${i}`
    a.addSchema(schema, id)
    // Compiling resolves every reference, or throws.
    assert.doesNotThrow(() => a.getSchema(id), where)
    const defs = Object.values(schema.$defs ?? {})
    const targets = new Set()
    for (const ref of new Set(refs(schema))) {
      const resolved = a.getSchema(id + ref)
      assert.ok(resolved, `${where}: ${ref} does not resolve`)
      assert.ok(defs.includes(resolved.schema), `${where}: ${ref} resolves to no $defs entry`)
      targets.add(resolved.schema)
    }
    assert.equal(targets.size, defs.length, `${where}: every entry is the target of one reference`)
  })
})

test('values validate through instantiated references', () => {
  const types = new Types(weather)
  const tool = 'github.com/acme/weather@1.2.0/weather.flow.list_stations'
  const ok = json(stringify(types.signature(tool))).ok
  assert.match(ok.$ref, /%3C/)
  const validate = ajv().compile(ok)
  const pageOfStation = json(weather).tools.find((t) => t.tool === tool).ok
  const file = parse(read(path.join(vectors, 'decode-weather.json')))
  const values = file.cases
    .filter((c) => c.canonical !== undefined && stringify(c.type) === stringify(pageOfStation))
    .map((c) => json(c.canonical))
  assert.ok(values.length >= 3)
  for (const value of values) assert.ok(validate(value), JSON.stringify(validate.errors))
  assert.equal(validate({ items: [{ id: 'x' }] }), false)
})
