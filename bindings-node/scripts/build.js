#!/usr/bin/env node
'use strict'
// Builds the native module from source with cargo and puts it where the
// napi-generated index.js looks for it (flow-toolkit.<platform>.node).
//
//   node scripts/build.js             build (release) unless the module exists
//   node scripts/build.js --force     build a debug module (fast to compile)
//   node scripts/build.js --force --release
//
// npm runs the first form on install, so `npm install ./bindings-node` works
// from a clone with a Rust toolchain; a package with a prebuilt module skips it.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const root = path.join(__dirname, '..')
const args = process.argv.slice(2)
const force = args.includes('--force')
const release = args.includes('--release') || !force

function platformSuffix() {
  const { platform, arch } = process
  if (platform === 'linux') {
    const glibc = process.report?.getReport()?.header?.glibcVersionRuntime
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
  }
  if (platform === 'darwin') return `darwin-${arch}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

const target = path.join(root, `flow-toolkit.${platformSuffix()}.node`)
if (!force && fs.existsSync(target)) {
  process.exit(0)
}

const cargo = process.env.CARGO || 'cargo'
const profile = release ? ['--release'] : []
execFileSync(cargo, ['build', '--locked', '-p', 'flow-toolkit-node', ...profile], { cwd: root, stdio: 'inherit' })
const metadata = JSON.parse(
  execFileSync(cargo, ['metadata', '--format-version', '1', '--no-deps'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 }),
)
const file = { linux: 'libflow_toolkit_node.so', darwin: 'libflow_toolkit_node.dylib', win32: 'flow_toolkit_node.dll' }[
  process.platform
]
const built = path.join(metadata.target_directory, release ? 'release' : 'debug', file)
// Copy to a temporary name and rename: a running process that has the old
// module mapped keeps its copy intact.
fs.copyFileSync(built, target + '.tmp')
fs.renameSync(target + '.tmp', target)
console.error(`@flow/toolkit: built ${path.relative(process.cwd(), target)} (${release ? 'release' : 'debug'})`)
