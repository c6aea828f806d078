'use strict'
// The native binding (napi-rs), loaded by the napi-generated ../index.js.
// Everything public goes through the modules beside this one.
module.exports = require('../index.js')
