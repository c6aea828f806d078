'use strict'
// Builds JSON values from the tape native code writes (src/tape.rs says its
// format): one pass, no Node-API call per value.
const { Decimal, TRUSTED } = require('./decimal.js')

function fromTape([ops, text, keyTable]) {
  const keys = new Array(keyTable.length / 2)
  for (let k = 0; k < keys.length; k++) keys[k] = text.slice(keyTable[2 * k], keyTable[2 * k] + keyTable[2 * k + 1])
  let i = 0
  function value() {
    switch (ops[i++]) {
      case 0:
        return null
      case 1:
        return false
      case 2:
        return true
      case 3: {
        const start = ops[i++]
        return text.slice(start, start + ops[i++])
      }
      case 4:
        return BigInt(ops[i++])
      case 5: {
        const start = ops[i++]
        return BigInt(text.slice(start, start + ops[i++]))
      }
      case 6: {
        const start = ops[i++]
        const coefficient = BigInt(text.slice(start, start + ops[i++]))
        return new Decimal(coefficient, ops[i++], TRUSTED)
      }
      case 7: {
        const n = ops[i++]
        const array = new Array(n)
        for (let j = 0; j < n; j++) array[j] = value()
        return array
      }
      case 8: {
        const n = ops[i++]
        const object = {}
        for (let j = 0; j < n; j++) {
          const key = keys[ops[i++]]
          if (key === '__proto__') {
            // A member, not the prototype.
            Object.defineProperty(object, key, { value: value(), writable: true, enumerable: true, configurable: true })
          } else {
            object[key] = value()
          }
        }
        return object
      }
      default:
        throw new Error('@flow/toolkit: a malformed tape (a bug)')
    }
  }
  return value()
}

module.exports = { fromTape }
