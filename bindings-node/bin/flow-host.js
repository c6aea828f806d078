#!/usr/bin/env node
'use strict'
// `npx flow-host ...`: the flow-host binary of the platform package
// (@flow/toolkit-linux-x64-gnu and the like). flow-host starts, watches and
// stops Tool processes, so it is a process of its own rather than part of the
// native module; this script runs it with the same arguments and stdio, passes
// on the signals it gets and exits as it did.
const { spawn } = require('node:child_process')
const { binaryPath } = require('../lib/platform.js')

const binary = binaryPath('flow-host')
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' })
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP']
for (const signal of forwarded) process.on(signal, () => child.kill(signal))
child.on('error', (error) => {
  console.error(`flow-host: cannot run ${binary}: ${error.message}`)
  process.exit(127)
})
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, as a shell would report it.
    for (const s of forwarded) process.removeAllListeners(s)
    process.kill(process.pid, signal)
    return
  }
  process.exit(code ?? 1)
})
