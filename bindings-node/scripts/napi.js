#!/usr/bin/env node
'use strict'
// Runs the napi CLI to (re)generate the committed index.js and index.d.ts
// from the Rust sources, or with --out DIR into another folder (the drift
// test compares the two). It builds the crate into target/napi: the CLI
// always passes --target, so it cannot share target/debug.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const root = path.join(__dirname, '..')
const outAt = process.argv.indexOf('--out')
const target = outAt === -1 ? root : path.resolve(process.argv[outAt + 1])
// The CLI also writes the module it built (a debug one): into a scratch
// folder, so the module in use here is left alone.
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-napi-'))
// The CLI is a development dependency of the repository (../package.json).
const cli = path.join(path.dirname(require.resolve('@napi-rs/cli/package.json', { paths: [root, path.join(root, '..')] })), 'dist', 'cli.js')
execFileSync(
  process.execPath,
  [
    cli,
    'build',
    '--platform',
    '--js',
    'index.js',
    '--dts',
    'index.d.ts',
    '--dts-header',
    "import type { JsonValue, Limits, TypeTerm } from './lib/index'",
    '--target-dir',
    path.join(root, '..', 'target', 'napi'),
    '--output-dir',
    out,
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
)
for (const file of ['index.js', 'index.d.ts']) fs.copyFileSync(path.join(out, file), path.join(target, file))
fs.rmSync(out, { recursive: true, force: true })
