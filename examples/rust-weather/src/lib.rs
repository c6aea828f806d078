//! The weather Tools implemented in Rust on the generated crate
//! (`generated-samples/rust/weather`), as an author would: typed arguments,
//! `Result` with the declared error, `ctx` for cancellation and, in the
//! generic `echo`, the call's codecs.
//!
//! A few cities ask for what the end-to-end tests need: `panic`,
//! `wait-for-cancel`, `count` (how many times this process ran a call), and
//! `Nowhere` (the declared error).

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, GenericValue, Instant, Json, Never};
use weather_tools::{Call, Day, Forecast, Page, Region, Sky, Station, Units, WeatherError, WeatherTools};

/// The Tools, with a count of the calls this process ran.
#[derive(Debug, Default)]
pub struct Weather {
    runs: AtomicU64,
}

/// The most days a forecast covers.
const MAX_DAYS: u32 = 14;

fn decimal(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).expect("a decimal literal")
}

fn issued() -> Instant {
    Instant::parse("2026-11-30T06:00:00Z").expect("an instant literal")
}

impl WeatherTools for Weather {
    async fn get_forecast(
        &self,
        ctx: &Call,
        city: String,
        days: BigInt,
        units: Option<Units>,
    ) -> Result<Forecast, WeatherError> {
        let run = self.runs.fetch_add(1, Ordering::SeqCst) + 1;
        match city.as_str() {
            "panic" => panic!("asked to panic"),
            "wait-for-cancel" => {
                // Holds the call until the host cancels it; what to answer then is ours.
                ctx.cancelled().await;
                return Err(WeatherError::RateLimited);
            }
            "Nowhere" => return Err(WeatherError::UnknownCity { query: city, suggestions: vec!["Oslo".to_owned()] }),
            _ => {}
        }
        // Int is unbounded: narrowing it is a checked conversion of our own.
        let days = match u32::try_from(&days) {
            Ok(days) if days <= MAX_DAYS => days,
            _ => return Err(WeatherError::Unavailable(Duration::parse("PT3600S").expect("a duration literal"))),
        };
        let imperial = units == Some(Units::Imperial);
        let city = if city == "count" { format!("run {run}") } else { city };
        Ok(Forecast {
            days: (0..days).map(|i| day(i, imperial)).collect(),
            city,
            issued: issued(),
            source: Some("rust-weather".to_owned()),
            tags: BTreeSet::from([if imperial { "imperial" } else { "metric" }.to_owned(), "sample".to_owned()]),
        })
    }

    async fn list_stations(
        &self,
        _ctx: &Call,
        region: Region,
        cursor: Option<String>,
    ) -> Result<Page<Station>, WeatherError> {
        let first = cursor.as_deref().map_or(Ok(0), u32::from_str).map_err(|_| WeatherError::RateLimited)?;
        let items = (first..first + 2)
            .map(|id| Station {
                id: BigInt::from(id),
                position: (decimal("59.91"), decimal("10.75")),
                readings: BTreeMap::from([("pressure_hpa".to_owned(), decimal("1013.25"))]),
                raw: Json::object([("region", Json::str(region.name.as_str())), ("children", Json::Array(Vec::new()))]),
                photo: (id == 0).then(|| vec![0x89, b'P', b'N', b'G']),
            })
            .collect();
        Ok(Page { items, next: (first == 0).then(|| "2".to_owned()) })
    }

    async fn station_history(
        &self,
        _ctx: &Call,
        station: BigInt,
        since: Instant,
        window: Duration,
        counts: BTreeMap<BigInt, BigInt>,
    ) -> Result<Vec<(Instant, BigDecimal)>, WeatherError> {
        let total: BigInt = counts.values().sum();
        (0..3)
            .map(|k| {
                let at = Instant::from_nanos(since.nanos() + k * window.nanos()).ok_or(WeatherError::RateLimited)?;
                let reading = BigDecimal::from(station.clone() + &total) + BigDecimal::new(BigInt::from(k), 1);
                Ok((at, reading))
            })
            .collect()
    }

    async fn echo(&self, ctx: &Call, value: GenericValue) -> Result<GenericValue, Never> {
        // The value is JSON at the call's type T; its codec knows T. Decoding
        // and encoding it again returns the value in T's canonical form.
        let t = ctx.codec("T").expect("echo has a type parameter T, and the server checked its binding");
        let typed = t.value(&value).expect("the server decoded the argument at T");
        Ok(t.encode(typed).expect("a value of T encodes at T"))
    }
}

fn day(i: u32, imperial: bool) -> Day {
    let (high, low) = if imperial { ("39.2", "30.2") } else { ("4", "-1") };
    Day {
        date: format!("2026-12-{:02}", i + 1),
        high_c: decimal(high) + BigDecimal::from(i),
        low_c: decimal(low),
        sky: match i % 3 {
            0 => Sky::Clear,
            1 => Sky::Cloudy(BigInt::from(40 + i)),
            _ => Sky::Storm { wind_kph: decimal("88.5"), warning: (i > 3).then(|| "Stay inside.".to_owned()) },
        },
        rain_mm: (i % 2 == 1).then(|| decimal("0.25")),
    }
}
