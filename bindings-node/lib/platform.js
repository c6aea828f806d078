'use strict'
// Which prebuilt platform package serves this machine (napi-rs naming:
// @flow/toolkit-linux-x64-gnu and the like), and what to say when none does.
const fs = require('node:fs')
const path = require('node:path')

/** `linux-x64-gnu`, `darwin-arm64`, ...: the napi-rs suffix of this platform. */
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

const packageName = `@flow/toolkit-${platformSuffix()}`

/** How to get a native module when no prebuilt one matches. */
const fromSource =
  `No prebuilt ${packageName} is installed (npm installs it as an optional dependency where one is published ` +
  `for this platform). Build from source, which needs cargo: in a flow-toolkit checkout run ` +
  '`node bindings-node/scripts/build.js --force --release` and install ./bindings-node, ' +
  'or set NAPI_RS_NATIVE_LIBRARY_PATH to a module you built.'

/**
 * The path of a binary (flow-host) shipped in the platform package, or, in a
 * checkout, built under its target/. Exits with a clear message if neither.
 */
function binaryPath(command) {
  const name = process.platform === 'win32' ? `${command}.exe` : command
  try {
    return path.join(path.dirname(require.resolve(`${packageName}/package.json`)), name)
  } catch {
    // No platform package: a checkout's own build, as in development.
  }
  for (const profile of ['release', 'debug']) {
    const built = path.join(__dirname, '..', '..', 'target', profile, name)
    if (fs.existsSync(built)) return built
  }
  console.error(`${command}: not found. ${fromSource} For ${command} itself: \`cargo build --release -p flow-toolkit-host\`.`)
  process.exit(127)
}

module.exports = { platformSuffix, packageName, fromSource, binaryPath }
