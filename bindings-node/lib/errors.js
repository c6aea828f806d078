'use strict'
// Errors the toolkit throws, and the one a Tool throws to fail as declared.

/**
 * A refusal by flow-core: a value or text that breaks a rule of the encoding.
 * `path` is a JSON path (`$.days[3].high_c`), `rule` a stable code shared with
 * the Rust and Python toolkits and the test vectors (`type`, `duplicate-key`, ...).
 */
class FlowError extends Error {
  constructor(path, rule, detail) {
    super(`${path}: ${detail} [${rule}]`)
    this.name = 'FlowError'
    /** @readonly */
    this.path = path
    /** @readonly */
    this.rule = rule
    /** @readonly */
    this.detail = detail
  }
}

/**
 * Thrown by a handler to end its call with the Tool's declared error:
 * `throw new Failed<WeatherError>({ case: 'RateLimited' })`. The call is
 * answered Failed with `error` encoded at the declared error type. A handler
 * may also throw the error value itself (`throw { case: 'RateLimited' }`):
 * any thrown object that is not an `Error` and is of the declared error type
 * is answered Failed (a thrown primitive, `undefined` or a string, is not:
 * use `Failed` for an error type of primitives). `Failed<E>` is the form TypeScript checks, as it does
 * not type `throw`. Anything else a handler throws is answered Unknown.
 */
class Failed extends Error {
  constructor(error, options) {
    super(`the Tool failed with its declared error`, options)
    this.name = 'Failed'
    /** @readonly */
    this.error = error
  }
}

module.exports = { FlowError, Failed }
