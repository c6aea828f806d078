//! The rules every reader of type descriptions shares: the data version read
//! and written, the bound on term nesting, and how a name is quoted in a
//! refusal. A leaf: the readers (`parse`, `validate`, `view`) and the
//! refusal writers (`hint`, `identity`) all take these from here.

use crate::error::{Error, Result, Rule};
use crate::json;

/// The data version this implementation writes (`decisions.md`, section 2a).
pub const DATA_VERSION: &str = "0.1";

/// The major version it reads: any `0.MINOR` is accepted, since within a major
/// version minors only add (host-boundary.md, "Versioning").
pub(crate) const DATA_MAJOR: u64 = 0;

/// The deepest term nesting read or validated. Text read under the default
/// limits never reaches it (every term level is at least one JSON level and the
/// JSON depth limit is 128); it bounds recursion over terms built in code, so
/// hostile input gives `Rule::TooDeep`, never a stack overflow.
pub const MAX_TERM_DEPTH: usize = 128;

/// Checks a data version: `MAJOR.MINOR`, decimal without leading zeros, with
/// our major. Both a malformed version and another major are version refusals
/// (`Rule::Version`), placed by the caller at `$.data`.
pub fn check_data_version(version: &str) -> Result<()> {
    fn numeral(s: &str) -> Option<u64> {
        let ok = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
        if ok {
            // A numeral too long for u64 is certainly not our major.
            Some(s.parse().unwrap_or(u64::MAX))
        } else {
            None
        }
    }
    // The first `.` found by its byte: the host checks this on every call, and
    // a char pattern's searcher is not inlined here.
    let dot = version.bytes().position(|b| b == b'.');
    let parsed = dot.and_then(|at| Some((numeral(&version[..at])?, numeral(&version[at + 1..])?)));
    match parsed {
        None => Err(Error::new(
            Rule::Version,
            format!("data version {} is not MAJOR.MINOR (this implementation reads {DATA_MAJOR}.x)", quote(version)),
        )),
        Some((major, _)) if major != DATA_MAJOR => Err(Error::new(
            Rule::Version,
            format!("data version {} has major {major}; this implementation reads {DATA_MAJOR}.x", quote(version)),
        )),
        Some(_) => Ok(()),
    }
}

/// `s` as a JSON string, the way a refusal names what it refuses.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    json::write_string(&mut out, s);
    out
}
