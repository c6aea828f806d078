'use strict'
// The native binding (napi-rs), loaded by the napi-generated ../index.js:
// ./flow-toolkit.<platform>.node when built in place, else the platform
// package. Everything public goes through the modules beside this one.
const { fromSource } = require('./platform.js')

try {
  module.exports = require('../index.js')
} catch (error) {
  throw new Error(`@flow/toolkit: cannot load its native module. ${fromSource}`, { cause: error })
}
