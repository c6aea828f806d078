//! The implementation of the weather Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{BigDecimal, BigInt, Duration, GenericValue, Instant, Never};
use flow_runtime::Call;

use weather_tools::types::{Forecast, Page, Region, Station, Units, WeatherError};
use weather_tools::WeatherTools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl WeatherTools for Implementation {
    /// `github.com/acme/weather@1.2.0/weather.flow.get_forecast`
    async fn get_forecast(
        &self,
        ctx: &Call,
        city: String,
        days: BigInt,
        units: Option<Units>,
    ) -> Result<Forecast, WeatherError> {
        todo!("get_forecast")
    }

    /// `github.com/acme/weather@1.2.0/weather.flow.list_stations`
    async fn list_stations(
        &self,
        ctx: &Call,
        region: Region,
        cursor: Option<String>,
    ) -> Result<Page<Station>, WeatherError> {
        todo!("list_stations")
    }

    /// `github.com/acme/weather@1.2.0/weather.flow.station_history`
    async fn station_history(
        &self,
        ctx: &Call,
        station: BigInt,
        since: Instant,
        window: Duration,
        counts: BTreeMap<BigInt, BigInt>,
    ) -> Result<Vec<(Instant, BigDecimal)>, WeatherError> {
        todo!("station_history")
    }

    /// `github.com/acme/weather@1.2.0/weather.flow.echo`
    async fn echo(&self, ctx: &Call, value: GenericValue) -> Result<GenericValue, Never> {
        todo!("echo")
    }
}
