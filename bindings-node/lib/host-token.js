'use strict'
// A host token: JSON the host chose, kept as its canonical text and handed
// back unchanged. Flow compares nothing about it; neither should a Tool.
const native = require('./native.js')

class HostToken {
  /**
   * A token from its canonical JSON text (what `toString()` returns). Tokens
   * normally come from the host in a call's args; this is for tests and fakes.
   * @param {string} canonical
   */
  constructor(canonical) {
    if (typeof canonical !== 'string') {
      throw new TypeError('HostToken: expected canonical JSON text')
    }
    // Refuses text that is not JSON, and keeps it canonical, so that equal
    // JSON is the same token (decisions.md 2a).
    /** @readonly */
    this.canonical = native.canonicalize(canonical)
  }

  toString() {
    return this.canonical
  }

  toJSON() {
    return this.canonical
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `HostToken(${this.canonical})`
  }
}

module.exports = { HostToken }
