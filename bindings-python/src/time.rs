//! `Instant` and `Duration`: exact integer nanoseconds (`decisions.md` section
//! 1), with conversions to and from `datetime` and `timedelta` where those hold
//! the value exactly, and a ValueError saying why where they do not.

use flow_core::time::{Duration as CoreDuration, Instant as CoreInstant, TimeError};
use flow_core::{Error, Rule};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyAny, PyType};

use crate::errors::decode_error;

const NANOS_PER_MICRO: i128 = 1_000;

fn time_error(py: Python<'_>, e: TimeError, rule: Rule) -> PyErr {
    let error = match e {
        TimeError::Form(m) => Error::new(rule, m),
        TimeError::Range(m) => Error::new(Rule::Range, m),
    };
    decode_error(py, &error)
}

/// A point in time: integer nanoseconds since 1970-01-01T00:00:00Z, within
/// ±8.64e21 ns. Immutable, hashable, ordered.
#[pyclass(frozen, eq, ord, hash, module = "flow_toolkit")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    pub inner: CoreInstant,
}

/// A span of time: integer nanoseconds, magnitude at most 1.728e22.
/// Immutable, hashable, ordered.
#[pyclass(frozen, eq, ord, hash, module = "flow_toolkit")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    pub inner: CoreDuration,
}

static EPOCH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
static TIMEDELTA: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn epoch(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    EPOCH
        .get_or_try_init(py, || {
            let datetime = py.import("datetime")?;
            let utc = datetime.getattr("timezone")?.getattr("utc")?;
            Ok::<_, PyErr>(datetime.getattr("datetime")?.call1((1970, 1, 1, 0, 0, 0, 0, utc))?.unbind())
        })
        .map(|e| e.bind(py))
}

/// Exact nanoseconds of a timedelta.
fn timedelta_nanos(delta: &Bound<'_, PyAny>) -> PyResult<i128> {
    let days: i128 = delta.getattr("days")?.extract()?;
    let seconds: i128 = delta.getattr("seconds")?.extract()?;
    let micros: i128 = delta.getattr("microseconds")?.extract()?;
    Ok(((days * 86_400 + seconds) * 1_000_000 + micros) * NANOS_PER_MICRO)
}

fn make_timedelta(py: Python<'_>, micros: i128) -> PyResult<Bound<'_, PyAny>> {
    let timedelta = TIMEDELTA.import(py, "datetime", "timedelta")?;
    // Split so every argument fits the C types timedelta takes.
    let days = micros.div_euclid(86_400_000_000);
    let rest = micros.rem_euclid(86_400_000_000);
    let days = i64::try_from(days).map_err(|_| PyValueError::new_err("out of timedelta's range"))?;
    timedelta.call1((days, 0, rest as i64))
}

#[pymethods]
impl Instant {
    /// The Instant `nanos` nanoseconds after 1970-01-01T00:00:00Z.
    #[new]
    fn new(nanos: i128) -> PyResult<Instant> {
        CoreInstant::from_nanos(nanos)
            .map(|inner| Instant { inner })
            .ok_or_else(|| PyValueError::new_err(format!("{nanos} ns is outside an Instant's range of ±8.64e21 ns")))
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)`; refuses anything else with a DecodeError.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Instant> {
        CoreInstant::parse(text).map(|inner| Instant { inner }).map_err(|e| time_error(py, e, Rule::Instant))
    }

    /// The current time, from `time.time_ns()`.
    #[staticmethod]
    fn now(py: Python<'_>) -> PyResult<Instant> {
        let nanos: i128 = py.import("time")?.getattr("time_ns")?.call0()?.extract()?;
        Instant::new(nanos)
    }

    /// The Instant of an aware datetime. A naive datetime names no instant and is refused.
    #[staticmethod]
    fn from_datetime(value: &Bound<'_, PyAny>) -> PyResult<Instant> {
        let py = value.py();
        let datetime = py.import("datetime")?.getattr("datetime")?;
        if !value.is_instance(&datetime)? {
            return Err(pyo3::exceptions::PyTypeError::new_err("expected a datetime.datetime"));
        }
        if value.call_method0("utcoffset")?.is_none() {
            return Err(PyValueError::new_err("a naive datetime names no instant: give it a tzinfo"));
        }
        let delta = value.call_method1("__sub__", (epoch(py)?,))?;
        Instant::new(timedelta_nanos(&delta)?)
    }

    /// This Instant as an aware datetime in UTC. Refused when it has
    /// sub-microsecond digits or lies outside years 1 to 9999.
    // pyo3 methods take `&self`; the Python name follows datetime's.
    #[allow(clippy::wrong_self_convention)]
    fn to_datetime<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nanos = self.inner.nanos();
        if nanos % NANOS_PER_MICRO != 0 {
            return Err(PyValueError::new_err(format!(
                "{} has nanoseconds, which a datetime cannot hold",
                self.text()
            )));
        }
        let out_of_range = || PyValueError::new_err(format!("{} is outside a datetime's years 1 to 9999", self.text()));
        let delta = make_timedelta(py, nanos / NANOS_PER_MICRO).map_err(|_| out_of_range())?;
        epoch(py)?.call_method1("__add__", (delta,)).map_err(|_| out_of_range())
    }

    /// Integer nanoseconds since 1970-01-01T00:00:00Z.
    #[getter]
    fn nanos(&self) -> i128 {
        self.inner.nanos()
    }

    /// The canonical text: UTC, `Z`, the fewest exact fraction digits.
    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Instant.parse('{}')", self.text())
    }
}

impl Instant {
    pub fn text(&self) -> String {
        self.inner.to_string()
    }
}

#[pymethods]
impl Duration {
    /// A Duration of `nanos` nanoseconds.
    #[new]
    fn new(nanos: i128) -> PyResult<Duration> {
        CoreDuration::from_nanos(nanos)
            .map(|inner| Duration { inner })
            .ok_or_else(|| PyValueError::new_err(format!("{nanos} ns is past a Duration's limit of 1.728e22 ns")))
    }

    /// Reads `PT<seconds>S` (`PT90S`, `PT0.25S`, `PT-5S`); refuses anything else with a DecodeError.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Duration> {
        CoreDuration::parse(text).map(|inner| Duration { inner }).map_err(|e| time_error(py, e, Rule::Duration))
    }

    /// The Duration of a timedelta (always exact: microseconds are whole nanoseconds).
    #[staticmethod]
    fn from_timedelta(value: &Bound<'_, PyAny>) -> PyResult<Duration> {
        let timedelta = TIMEDELTA.import(value.py(), "datetime", "timedelta")?;
        if !value.is_instance(timedelta)? {
            return Err(pyo3::exceptions::PyTypeError::new_err("expected a datetime.timedelta"));
        }
        Duration::new(timedelta_nanos(value)?)
    }

    /// This Duration as a timedelta. Refused when it has sub-microsecond
    /// digits or is past timedelta's ±999,999,999 days.
    // pyo3 methods take `&self`; the Python name follows timedelta's.
    #[allow(clippy::wrong_self_convention)]
    fn to_timedelta<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let nanos = self.inner.nanos();
        if nanos % NANOS_PER_MICRO != 0 {
            return Err(PyValueError::new_err(format!(
                "{} has nanoseconds, which a timedelta cannot hold",
                self.text()
            )));
        }
        make_timedelta(py, nanos / NANOS_PER_MICRO)
            .map_err(|_| PyValueError::new_err(format!("{} is outside a timedelta's range", self.text())))
    }

    /// Integer nanoseconds.
    #[getter]
    fn nanos(&self) -> i128 {
        self.inner.nanos()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Duration.parse('{}')", self.text())
    }
}

impl Duration {
    pub fn text(&self) -> String {
        self.inner.to_string()
    }
}
