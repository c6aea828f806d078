'use strict'
// @flow/toolkit: Flow's host boundary for Node.js. Types are in index.d.ts.
const native = require('./native.js')
const { Decimal, TRUSTED } = require('./decimal.js')
const { fromTape, toTape } = require('./tape.js')
const { Instant, Duration } = require('./time.js')
const { HostToken } = require('./host-token.js')
const { Some } = require('./option.js')
const { FlowSet, FlowMap, flowKey } = require('./collections.js')
const { FlowError, Failed } = require('./errors.js')

// The classes native code builds and recognizes; two helpers it calls to read
// a set's members and a map's entries, whichever kind they are; and the
// builder of values from a tape (lib/tape.js).
native.register({
  Decimal,
  trusted: TRUSTED,
  Instant,
  Duration,
  HostToken,
  Some,
  FlowSet,
  FlowMap,
  FlowError,
  Map,
  Set,
  setToArray: (set) => (set instanceof FlowSet ? set.toArray() : Array.from(set)),
  mapToArray: (map) => (map instanceof FlowMap ? map.toArray() : Array.from(map)),
  fromTape,
})

const { serve, CancelledError } = require('./serve.js')
const { canonicalize, Types, Codec } = native

// The ArrayBuffer the last parse's ops were written into, handed back so
// the next parse writes there rather than into new memory (up to a bound,
// so one huge text does not keep its room for good). It is taken while a
// tape is read, so a parse started meanwhile cannot overwrite that tape.
const SCRATCH_MAX = 64 << 20
let scratch

/** Reads JSON text exactly (whole numbers bigint, others Decimal) under Flow's rules. */
function parse(text, limits) {
  const tape = native.parseTape(text, limits, scratch)
  scratch = undefined
  const value = fromTape(...tape)
  const buffer = tape[0].buffer
  if (buffer.byteLength <= SCRATCH_MAX) scratch = buffer
  return value
}

/** The canonical text of a JSON value (a `number` or `undefined` anywhere is refused). */
function stringify(value, limits) {
  const [ops, text] = toTape(value, limits?.maxDepth)
  return native.stringifyTape(ops, text, limits)
}

// Every export is a shorthand property, so that Node's ES module loader sees
// them all as named exports (`import { Decimal } from '@flow/toolkit'`).
module.exports = {
  // Values
  Decimal,
  Instant,
  Duration,
  HostToken,
  Some,
  FlowSet,
  FlowMap,
  flowKey,
  // Text and types
  canonicalize,
  parse,
  stringify,
  Types,
  Codec,
  // Errors
  FlowError,
  Failed,
  // Serving Tools
  serve,
  CancelledError,
}
