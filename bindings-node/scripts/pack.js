#!/usr/bin/env node
'use strict'
// Packs the npm packages of a release, napi-rs style:
//
//   node scripts/pack.js --module MODULE --host FLOW-HOST --out DIR
//       [--platform SUFFIX] [--optional-platforms all]
//   node scripts/pack.js --main-only --optional-platforms all --out DIR
//
// @flow/toolkit: the JavaScript, with the platform packages as optional
// dependencies and no install script (nothing is built on install): this
// platform's alone by default (what make dist and make dist-test use, so that
// npm asks the registry for nothing unpublished), every npm/<platform>/ with
// `--optional-platforms all` (the release). The platform package
// (npm/<platform>/; this machine's unless --platform names another, for a
// module built for that target): the prebuilt module and flow-host.
// Each is staged in a scratch folder and `npm pack`ed into DIR.
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { platformSuffix } = require('../lib/platform.js')

const root = path.join(__dirname, '..')
const usage =
  'usage: pack.js --module FILE --host FILE --out DIR [--platform SUFFIX] [--optional-platforms all], ' +
  'or pack.js --main-only --out DIR [--optional-platforms all]'
function option(name) {
  const at = process.argv.indexOf(name)
  if (at === -1) return undefined
  if (!process.argv[at + 1]) throw new Error(`${usage} (${name} needs a value)`)
  return process.argv[at + 1]
}
function arg(name) {
  const value = option(name)
  if (value === undefined) throw new Error(`${usage} (${name} missing)`)
  return path.resolve(value)
}
const mainOnly = process.argv.includes('--main-only')
const out = arg('--out')
const suffix = option('--platform') ?? platformSuffix()
const platformDir = path.join(root, 'npm', suffix)
if (!fs.existsSync(platformDir)) throw new Error(`no platform package for ${suffix} (npm/${suffix}/ is missing)`)
const optional = option('--optional-platforms')
if (optional !== undefined && optional !== 'all') throw new Error(`${usage} (--optional-platforms takes only all)`)
const platforms = optional === 'all' ? fs.readdirSync(path.join(root, 'npm')).sort() : [suffix]

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
// Installing runs nothing: the module comes prebuilt in the platform package.
delete manifest.scripts
manifest.optionalDependencies = {}
for (const each of platforms) {
  const platformManifest = JSON.parse(fs.readFileSync(path.join(root, 'npm', each, 'package.json'), 'utf8'))
  if (platformManifest.name !== `@flow/toolkit-${each}` || platformManifest.version !== manifest.version) {
    throw new Error(`npm/${each}/package.json must be @flow/toolkit-${each}@${manifest.version}`)
  }
  manifest.optionalDependencies[platformManifest.name] = manifest.version
}
fs.writeFileSync(path.join(main, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
pack(main)

if (!mainOnly) {
  // The platform package: its manifest, the module and flow-host (flow-host.exe on Windows).
  const [moduleFile, hostFile] = [arg('--module'), arg('--host')]
  const platformManifest = JSON.parse(fs.readFileSync(path.join(platformDir, 'package.json'), 'utf8'))
  const host = platformManifest.files.find((file) => file.startsWith('flow-host'))
  const platform = path.join(stage, suffix)
  fs.cpSync(platformDir, platform, { recursive: true })
  fs.copyFileSync(moduleFile, path.join(platform, platformManifest.main))
  fs.copyFileSync(hostFile, path.join(platform, host))
  fs.chmodSync(path.join(platform, host), 0o755)
  pack(platform)
}
fs.rmSync(stage, { recursive: true, force: true })
