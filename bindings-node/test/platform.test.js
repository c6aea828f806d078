'use strict'
// Without a prebuilt module for the platform (no platform package, none built
// in place), loading @flow/toolkit and running flow-host fail saying how to
// build from source; with the platform package, flow-host runs its binary.
const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const root = path.join(__dirname, '..')

/** @flow/toolkit's JavaScript alone, in node_modules of a scratch project. */
function bareInstall() {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-platform-'))
  const pkg = path.join(project, 'node_modules', '@flow', 'toolkit')
  for (const entry of ['package.json', 'index.js', 'index.d.ts', 'lib', 'bin']) {
    fs.cpSync(path.join(root, entry), path.join(pkg, entry), { recursive: true })
  }
  return { project, pkg }
}

test('no prebuilt module: loading says how to build one from source', (t) => {
  const { project, pkg } = bareInstall()
  t.after(() => fs.rmSync(project, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, ['-e', "require('@flow/toolkit')"], { cwd: project, encoding: 'utf8' })
  assert.notStrictEqual(r.status, 0)
  const { packageName } = require('../lib/platform.js')
  assert.match(r.stderr, new RegExp(`No prebuilt ${packageName} is installed`))
  assert.match(r.stderr, /scripts\/build\.js --force --release/)
  assert.match(r.stderr, /needs cargo/)
  assert.ok(fs.existsSync(pkg))
})

test('no platform package: flow-host says so and exits 127', (t) => {
  const { project, pkg } = bareInstall()
  t.after(() => fs.rmSync(project, { recursive: true, force: true }))
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin', 'flow-host.js'), '--version'], { encoding: 'utf8' })
  assert.strictEqual(r.status, 127)
  assert.match(r.stderr, /flow-host: not found\. No prebuilt/)
  assert.match(r.stderr, /cargo build --release -p flow-toolkit-host/)
})

test('with the platform package, flow-host runs its binary and exits as it does', (t) => {
  const { project, pkg } = bareInstall()
  t.after(() => fs.rmSync(project, { recursive: true, force: true }))
  const { packageName } = require('../lib/platform.js')
  const platform = path.join(project, 'node_modules', ...packageName.split('/'))
  fs.mkdirSync(platform, { recursive: true })
  fs.writeFileSync(path.join(platform, 'package.json'), JSON.stringify({ name: packageName, version: '0.1.0' }))
  // A stand-in binary: prints its arguments, exits 3.
  fs.writeFileSync(path.join(platform, 'flow-host'), '#!/bin/sh\necho "args: $*"\nexit 3\n', { mode: 0o755 })
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin', 'flow-host.js'), 'call', 'x y'], { encoding: 'utf8' })
  assert.strictEqual(r.status, 3)
  assert.strictEqual(r.stdout, 'args: call x y\n')
})
