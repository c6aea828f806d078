// The implementation of the weather Tools: a small, deterministic stand-in for
// a weather service, written on the generated code. flow-gen wrote this file
// once as stubs; it is ours to edit and is never rewritten.
//
// Some inputs exist to show each outcome (the end-to-end tests use them):
// getForecast("Atlantis", ...) fails with UnknownCity, "boom" throws (an
// Unknown), "slow" waits for the host's cancel; listStations of a region named
// "closed" is rate limited; echo("fail") throws a WeatherError, which echo
// does not declare (an Unknown).
//
// A handler fails by throwing its Tool's error value (`throw error satisfies
// WeatherError`, checked by the compiler through `satisfies`);
// stationHistory shows the other way, `throw new Failed<WeatherError>(error)`.

import { Decimal, Duration, Failed, Instant } from "@flow/toolkit"
import type { CallContext, GenericCallContext, JsonValue } from "@flow/toolkit"
import type { Day, Forecast, Page, Region, Sky, Station, Units, WeatherError } from "./types.js"

const d = Decimal.parse

/** Resolves when the call is cancelled (or after `ms`, whichever is first). */
function cancelled(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener("abort", () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/**
 * Forecast for a city.
 */
export async function getForecast(
  city: string,
  days: bigint,
  units: Units | undefined,
  context: CallContext,
): Promise<Forecast> {
  if (city === "Atlantis") {
    throw { case: "UnknownCity", value: { query: city, suggestions: ["Athens", "Atlanta"] } } satisfies WeatherError
  }
  if (city === "boom") {
    throw new Error("the forecast model is down")
  }
  if (city === "slow") {
    // Waits for the host's cancel, then says when to try again.
    await cancelled(context.signal, 30_000)
    throw { case: "Unavailable", value: Duration.fromSeconds(90) } satisfies WeatherError
  }
  if (days < 1n || days > 14n) {
    throw { case: "RateLimited" } satisfies WeatherError
  }
  const fahrenheit = units?.case === "Imperial"
  const temperature = (celsius: Decimal): Decimal => (fahrenheit ? fahrenheitOf(celsius) : celsius)
  const skies: Sky[] = [
    { case: "Clear" },
    { case: "Cloudy", value: 40n },
    { case: "Storm", value: { wind_kph: d("88.5"), warning: "Gale" } },
  ]
  const forecastDays: Day[] = []
  for (let day = 0; day < Number(days); day++) {
    forecastDays.push({
      date: `2026-12-${String(day + 1).padStart(2, "0")}`,
      high_c: temperature(minus(d("4.5"), day)),
      low_c: temperature(minus(d("-1.25"), day)),
      sky: skies[day % 3]!,
      rain_mm: day % 2 ? d("0.7") : undefined,
    })
  }
  return {
    city,
    days: forecastDays,
    issued: Instant.parse("2026-11-30T08:15:00.5Z"),
    source: "example",
    tags: new Set(["snow", "alps"]),
  }
}

/** `a - n`, exactly. */
function minus(a: Decimal, n: number): Decimal {
  const scale = Math.min(a.exponent, 0)
  return new Decimal(a.coefficient * 10n ** BigInt(a.exponent - scale) - BigInt(n) * 10n ** BigInt(-scale), scale)
}

/** Celsius to Fahrenheit, exactly: c × 9 / 5 + 32 = (c × 18 + 320) / 10. */
function fahrenheitOf(celsius: Decimal): Decimal {
  const scale = Math.min(celsius.exponent, 0)
  const c = celsius.coefficient * 10n ** BigInt(celsius.exponent - scale)
  return new Decimal(c * 18n + 320n * 10n ** BigInt(-scale), scale - 1)
}

export async function listStations(
  region: Region,
  cursor: string | undefined,
  context: CallContext,
): Promise<Page<Station>> {
  if (region.name === "closed") {
    throw { case: "RateLimited" } satisfies WeatherError
  }
  if (region.name === "slow") {
    await cancelled(context.signal, 30_000)
  }
  const names = [region.name, ...region.children.map((child) => child.name)]
  const start = Number(cursor ?? "0")
  const items: Station[] = names.slice(start, start + 2).map((name, i) => ({
    id: BigInt(start + i),
    position: [d("47.37"), minus(d("8.54"), -i)],
    readings: new Map([
      ["temp_c", d("3.5")],
      ["wind_kph", d("12")],
    ]),
    raw: { name, sensors: [1n, 2n, d("2.5")], ok: true, note: null },
    photo: i === 0 ? new Uint8Array([0x89, 0x50, 0x4e, 0x47]) : undefined,
  }))
  return { items, next: start + 2 < names.length ? String(start + 2) : undefined }
}

// How many times stationHistory has run: its last reading says so, so a
// re-sent call that ran it twice would show.
let historyRuns = 0

/**
 * Readings of one station.
 */
export async function stationHistory(
  station: bigint,
  since: Instant,
  window: Duration,
  counts: ReadonlyMap<bigint, bigint>,
  context: CallContext,
): Promise<readonly (readonly [Instant, Decimal])[]> {
  historyRuns += 1
  const runs = historyRuns
  if (station < 0n) {
    throw new Failed<WeatherError>({ case: "Unavailable", value: Duration.fromSeconds(5) })
  }
  const samples = counts.get(station) ?? 3n
  const readings: (readonly [Instant, Decimal])[] = []
  for (let i = 0n; i < samples; i++) {
    readings.push([new Instant(since.epochNanoseconds + i * window.nanoseconds), new Decimal(i * 25n, -2)])
  }
  readings.push([since, new Decimal(BigInt(runs))])
  return readings
}

/**
 * Returns its argument.
 */
export async function echo(value: JsonValue, context: GenericCallContext): Promise<JsonValue> {
  if (value === "fail") {
    // echo's error type is Never: a WeatherError thrown here is answered Unknown.
    throw { case: "RateLimited" } satisfies WeatherError
  }
  return value
}
