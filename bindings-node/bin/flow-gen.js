#!/usr/bin/env node
'use strict'
// `npx flow-gen ...`: the flow-gen command compiled into the native module.
const native = require('../lib/native.js')
process.exitCode = native.flowGen(['flow-gen', ...process.argv.slice(2)])
