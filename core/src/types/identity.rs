//! Declaration identities (`decisions.md` section 5; host-boundary.md,
//! "Identity and fingerprints"): their format, and their uniqueness in a
//! listing (`decisions.md` 2a), also after removing versions, since the
//! canonical signature names types without their versions and two identities
//! that differ only in version would collide there.

use std::collections::HashMap;

use super::model::identity_without_version;
use super::rules::quote;
use crate::error::{Error, Path, Result, Rule};

/// Checks an identity's format: `REPOSITORY@VERSION/FILE.NAME`, or
/// `PATH.NAME` for a file outside any repository. At most one `@`;
/// REPOSITORY may hold `/` but no `@`; VERSION holds neither; FILE and PATH
/// are non-empty; NAME (after the last `.`) is non-empty text without `.`,
/// `/` or `@`. Refusals are `Rule::Identity`, placed by the caller.
pub fn check_identity(identity: &str) -> Result<()> {
    let fail = |why: &str| Err(Error::new(Rule::Identity, format!("identity {} is malformed: {why}", quote(identity))));
    let Some((place, name)) = identity.rsplit_once('.') else {
        return fail("it has no '.' before its NAME");
    };
    if name.is_empty() {
        return fail("its NAME (after the last '.') is empty");
    }
    if name.contains(['/', '@']) {
        return fail("its NAME (after the last '.') holds '/' or '@'");
    }
    match place.matches('@').count() {
        0 if place.is_empty() => fail("its PATH (before the NAME) is empty"),
        0 => Ok(()),
        1 => {
            let (repository, rest) = place.split_once('@').unwrap_or_default();
            let Some((version, file)) = rest.split_once('/') else {
                return fail("it has no '/' after REPOSITORY@VERSION");
            };
            if repository.is_empty() {
                fail("its REPOSITORY is empty")
            } else if version.is_empty() {
                fail("its VERSION is empty")
            } else if file.is_empty() {
                fail("its FILE is empty")
            } else {
                Ok(())
            }
        }
        _ => fail("it holds more than one '@'"),
    }
}

/// The identities seen so far in one description, without their versions,
/// with where each was first seen (for the message).
#[derive(Default)]
pub(crate) struct Identities {
    seen: HashMap<String, Path>,
}

impl Identities {
    /// Records `identity`, found at `at`; refuses it as `Rule::Identity`
    /// when an identity equal to it, also after removing versions, came
    /// before. The error is placed by the caller (at the later occurrence).
    pub(crate) fn claim(&mut self, identity: &str, at: Path) -> Result<()> {
        let key = identity_without_version(identity);
        if let Some(first) = self.seen.get(&key) {
            return Err(Error::new(
                Rule::Identity,
                format!(
                    "identity {} is also at {first}; identities are unique in a listing, also without versions",
                    quote(identity)
                ),
            ));
        }
        self.seen.insert(key, at);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check_identity;

    #[test]
    fn formats() {
        for ok in [
            "github.com/acme/weather@1.2.0/weather.flow.get_forecast",
            "github.com/acme/weather@1.2.0/sub/dir/weather.flow.Forecast",
            "tools/search.flow.get-sum",
            "a.B",
            "r@v/f.N",
        ] {
            assert!(check_identity(ok).is_ok(), "{ok}");
        }
        for bad in [
            "NoDot",
            "file.flow.",
            "a@b@c/f.N",
            "repo@1.0.N",
            "@1.0/f.N",
            "repo@/f.N",
            "repo@1.0/.N",
            ".N",
            "repo@1.0/f.flow.N@x",
            "repo@1.0/f.flow/x",
        ] {
            assert!(check_identity(bad).is_err(), "{bad}");
        }
    }
}
