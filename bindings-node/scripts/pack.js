#!/usr/bin/env node
'use strict'
// Packs the two npm packages of a release for this platform, napi-rs style:
//
//   node scripts/pack.js --module MODULE.so --host FLOW-HOST --out DIR
//
// @flow/toolkit: the JavaScript, with the platform package as an optional
// dependency and no install script (nothing is built on install). The
// platform package (npm/<platform>/): the prebuilt module and flow-host.
// Both are staged in a scratch folder and `npm pack`ed into DIR.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { platformSuffix, packageName } = require('../lib/platform.js')

const root = path.join(__dirname, '..')
function arg(name) {
  const at = process.argv.indexOf(name)
  if (at === -1 || !process.argv[at + 1]) throw new Error(`usage: pack.js --module FILE --host FILE --out DIR (${name} missing)`)
  return path.resolve(process.argv[at + 1])
}
const [moduleFile, hostFile, out] = [arg('--module'), arg('--host'), arg('--out')]
const suffix = platformSuffix()
const platformDir = path.join(root, 'npm', suffix)
if (!fs.existsSync(platformDir)) throw new Error(`no platform package for ${suffix} (npm/${suffix}/ is missing)`)

const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-pack-'))
const pack = (dir) => {
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir, encoding: 'utf8' }).trim()
  console.error(`@flow/toolkit: packed ${path.join(out, name)}`)
}
fs.mkdirSync(out, { recursive: true })

// The main package: what package.json's "files" ships, less any built module.
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const main = path.join(stage, 'toolkit')
manifest.files = manifest.files.filter((entry) => entry !== '*.node')
for (const entry of manifest.files) fs.cpSync(path.join(root, entry), path.join(main, entry), { recursive: true })
const platformManifest = JSON.parse(fs.readFileSync(path.join(platformDir, 'package.json'), 'utf8'))
if (platformManifest.name !== packageName || platformManifest.version !== manifest.version) {
  throw new Error(`npm/${suffix}/package.json must be ${packageName}@${manifest.version}`)
}
// Installing runs nothing: the module comes prebuilt in the platform package.
delete manifest.scripts
manifest.optionalDependencies = { [packageName]: manifest.version }
fs.writeFileSync(path.join(main, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
pack(main)

// The platform package: its manifest, the module and flow-host.
const platform = path.join(stage, suffix)
fs.cpSync(platformDir, platform, { recursive: true })
fs.copyFileSync(moduleFile, path.join(platform, platformManifest.main))
fs.copyFileSync(hostFile, path.join(platform, 'flow-host'))
fs.chmodSync(path.join(platform, 'flow-host'), 0o755)
pack(platform)
fs.rmSync(stage, { recursive: true, force: true })
