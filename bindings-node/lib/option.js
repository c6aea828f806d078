'use strict'
// Some: the explicit form of Option's Some, used only where `undefined` alone
// would be ambiguous: an Option whose payload is itself an Option
// (Option<Option<Int>>: undefined is None, new Some(undefined) is Some(None),
// 5n is... not allowed: new Some(5n) is Some(Some(5))).

class Some {
  /** @param {unknown} value */
  constructor(value) {
    /** @readonly */
    this.value = value
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return `Some(${inspect(this.value, options)})`
  }
}

module.exports = { Some }
