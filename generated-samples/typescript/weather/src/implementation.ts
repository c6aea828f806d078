// The weather Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

import { Failed } from "@flow/toolkit"
import type { CallContext, Decimal, Duration, GenericCallContext, Instant, JsonValue } from "@flow/toolkit"
import type { Forecast, Page, Region, Station, Units, WeatherError } from "./types.js"

/**
 * Forecast for a city.
 *
 * Tool `github.com/acme/weather@1.2.0/weather.flow.get_forecast`, fingerprint `sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077`.
 *
 * To fail with the declared error, `throw error satisfies WeatherError` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<WeatherError>(error)`.
 */
export async function getForecast(
  city: string,
  days: bigint,
  units: Units | undefined,
  context: CallContext,
): Promise<Forecast> {
  throw new Error("getForecast is not implemented yet")
}

/**
 * Tool `github.com/acme/weather@1.2.0/weather.flow.list_stations`, fingerprint `sha256:12298ed82fe3070ba2a67592e8b4df6e17e9d982093ba2024f791c5bdead04b1`.
 *
 * To fail with the declared error, `throw error satisfies WeatherError` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<WeatherError>(error)`.
 */
export async function listStations(
  region: Region,
  cursor: string | undefined,
  context: CallContext,
): Promise<Page<Station>> {
  throw new Error("listStations is not implemented yet")
}

/**
 * Readings of one station.
 *
 * Tool `github.com/acme/weather@1.2.0/weather.flow.station_history`, fingerprint `sha256:4686e3f7a71b3fb08def9c890b66e9cf4e68df310e4920184defb76d02144df4`.
 *
 * To fail with the declared error, `throw error satisfies WeatherError` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<WeatherError>(error)`.
 */
export async function stationHistory(
  station: bigint,
  since: Instant,
  window: Duration,
  counts: ReadonlyMap<bigint, bigint>,
  context: CallContext,
): Promise<readonly (readonly [Instant, Decimal])[]> {
  throw new Error("stationHistory is not implemented yet")
}

/**
 * Returns its argument.
 *
 * Tool `github.com/acme/weather@1.2.0/weather.flow.echo`, fingerprint `sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7`.
 *
 * Generic in T: values of a type parameter are JSON; `context` has the call's types and codecs.
 */
export async function echo(
  value: JsonValue,
  context: GenericCallContext,
): Promise<JsonValue> {
  throw new Error("echo is not implemented yet")
}
