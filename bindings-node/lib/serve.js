'use strict'
// serve(): runs a Tool process. The protocol's rules are flow-core's (through
// the native Server); this file runs handlers: each call gets a context
// whose signal a `cancel` aborts, and its settled promise becomes the reply.
const native = require('./native.js')
const { Failed } = require('./errors.js')

const START = 0
const CANCEL = 1
const END = 2

/** Why a handler's signal was aborted. */
class CancelledError extends Error {
  constructor() {
    super('the host cancelled this call')
    this.name = 'CancelledError'
  }
}

/** What a handler threw, for the Unknown reason: `Name: message` of an Error. */
function describeThrown(thrown) {
  try {
    if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`
    return `it threw ${typeof thrown === 'string' ? JSON.stringify(thrown) : String(thrown)}`
  } catch {
    return 'it threw a value that cannot be shown'
  }
}

// Aborts a context's signal; a symbol, so no author code calls it by name.
const abortCall = Symbol('abortCall')

/**
 * A call's context: `run`, `call` and `tool`, and `signal`, an AbortSignal
 * made when first read. An AbortController costs more than the rest of a
 * call's JavaScript side (about 3.5 us on Node 20), and most handlers never
 * read it; a call cancelled before its signal is read gets one already
 * aborted, with the same reason.
 */
class CallContext {
  #controller
  #reason

  constructor(run, call, tool) {
    this.run = run
    this.call = call
    this.tool = tool
    this.#controller = undefined
    this.#reason = undefined
  }

  /** Aborted when the host cancels the call. */
  get signal() {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.#reason !== undefined) this.#controller.abort(this.#reason)
    }
    return this.#controller.signal
  }

  [abortCall](reason) {
    if (this.#controller !== undefined) this.#controller.abort(reason)
    else if (this.#reason === undefined) this.#reason = reason
  }
}

/**
 * A generic call's context: also `types`, `schema` and `codecs`, made by
 * native code when the handler first reads one of them (then kept), so that
 * a handler which reads none, an echo, does not pay for them.
 */
class GenericCallContext extends CallContext {
  #server
  #handle
  #views

  constructor(server, run, call, tool, handle) {
    super(run, call, tool)
    this.#server = server
    this.#handle = handle
    this.#views = undefined
  }

  #built() {
    if (this.#views === undefined) {
      this.#views = this.#server.genericContext(this.#handle)
      this.#handle = undefined
    }
    return this.#views
  }

  /** The call's validated types view. */
  get types() {
    return this.#built().types
  }

  /** The success type's JSON Schema. */
  get schema() {
    return this.#built().schema
  }

  /** Codecs for the concrete roots, and for each type parameter's binding. */
  get codecs() {
    return this.#built().codecs
  }
}

/** The native server, speaking what `args` name; a usage error ends the process. */
function nativeServer(metadata, args) {
  try {
    return new native.Server(metadata.listing, metadata.tools, args)
  } catch (e) {
    if (e && e.code === 'InvalidArg') {
      process.stderr.write(`${e.message}\n`)
      process.exit(2)
    }
    throw e
  }
}

/**
 * Serves `metadata`'s Tools on stdin and stdout until stdin ends and every
 * running call has replied; the promise resolves then. `handlers` are in the
 * metadata's Tool order; each is called with the Tool's arguments, then the
 * call's context (with `signal`). It speaks the Flow Tool process protocol,
 * or with `--mcp` among the process's arguments (`options.args`, by default
 * `process.argv.slice(2)`) serves the Tools to MCP clients; any other
 * argument is a usage error (exit status 2).
 */
function serve(metadata, handlers, options = {}) {
  const server = nativeServer(metadata, options.args ?? process.argv.slice(2))
  const tools = server.tools
  if (!Array.isArray(handlers) || handlers.length !== tools.length) {
    throw new TypeError(`serve: expected ${tools.length} handlers (one per Tool: ${tools.join(', ')})`)
  }
  handlers.forEach((handler, i) => {
    if (typeof handler !== 'function') {
      throw new TypeError(`serve: the handler of ${tools[i]} is not a function`)
    }
  })
  const log = options.log ?? ((line) => process.stderr.write(line + '\n'))
  const running = new Map()
  let ended = false
  let resolveDone
  const done = new Promise((resolve) => {
    resolveDone = resolve
  })
  const settle = () => {
    if (ended && running.size === 0) {
      // Every reply is out before the promise says the serving is done.
      server.flush()
      resolveDone()
    }
  }

  async function runCall(id, tool, args, context) {
    running.set(id, context)
    let kind
    let value
    try {
      // Called as a plain function, so its stack reads as the author wrote it.
      const handler = handlers[tool]
      value = await handler(...args, context)
      kind = 0
    } catch (thrown) {
      if (thrown instanceof Failed) {
        kind = 1
        value = thrown.error
      } else if (typeof thrown === 'object' && thrown !== null && !(thrown instanceof Error)) {
        // A thrown object that is not an Error may be the declared error
        // itself (`throw { case: 'RateLimited' }`): Failed if it encodes at
        // that type, else Unknown (flow-core's reason, logged by the native
        // side). Not a primitive: a stray `throw undefined` or `reject()`
        // would otherwise turn into a declared None or Unit, hiding a fault;
        // `throw new Failed(e)` says so where that is meant.
        kind = 3
        value = thrown
      } else {
        // What the handler did before it threw is not known: Unknown. The
        // author sees why on stderr; the host gets the one-line reason.
        kind = 2
        value = describeThrown(thrown)
        log(`flow tool: ${tools[tool]} (run ${JSON.stringify(context.run)}, call ${JSON.stringify(context.call)}) threw: ${(thrown instanceof Error && thrown.stack) || value}`)
      }
    }
    running.delete(id)
    try {
      server.finish(id, kind, value)
    } catch (e) {
      log(`flow tool: could not reply to call ${JSON.stringify(context.call)}: ${e && e.message}`)
    }
    scheduleFlush()
    settle()
  }

  // Replies finished in one turn of the event loop are written together,
  // once the turn's handlers have run (setImmediate runs after the turn's
  // I/O callbacks and their promise jobs): one write for a burst of calls,
  // and for a call alone no later than the end of its turn.
  let flushing = false
  const flush = () => {
    flushing = false
    server.flush()
  }
  const scheduleFlush = () => {
    if (!flushing) {
      flushing = true
      setImmediate(flush)
    }
  }

  server.start((kind, id, tool, args, run, call, generic) => {
    if (kind === START) {
      const identity = tools[tool]
      const context =
        generic === undefined
          ? new CallContext(run, call, identity)
          : new GenericCallContext(server, run, call, identity, generic)
      runCall(id, tool, args, context)
    } else if (kind === CANCEL) {
      running.get(id)?.[abortCall](new CancelledError())
    } else if (kind === END) {
      ended = true
      settle()
    }
  })
  return done
}

module.exports = { serve, CancelledError }
