'use strict'
// The committed index.js and index.d.ts are what the napi CLI generates from
// the Rust sources now (it builds into target/napi: slow the first time).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { scratchDir } = require('./helpers.js')

const root = path.join(__dirname, '..')

test('index.js and index.d.ts have not drifted from the Rust sources', () => {
  const out = scratchDir('flow-napi-')
  execFileSync(process.execPath, [path.join(root, 'scripts', 'napi.js'), '--out', out], { stdio: 'inherit' })
  for (const file of ['index.js', 'index.d.ts']) {
    assert.equal(
      fs.readFileSync(path.join(out, file), 'utf8'),
      fs.readFileSync(path.join(root, file), 'utf8'),
      `${file} is stale: run \`npm run napi\` in bindings-node and commit it`,
    )
  }
})
