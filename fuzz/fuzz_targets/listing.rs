//! Listing validation (`core/src/types/parse.rs`, `validate.rs`, `reach.rs`,
//! `recursion.rs`, `identity.rs`) and what is computed from a listing once it
//! is accepted (`fingerprint.rs`, `schema/`, `protocol/server.rs`).
//!
//! Any bytes: reading and validating never panics, and an accepted listing
//! - writes back to JSON that reads to the same listing;
//! - gives every Tool a signature in both forms and a fingerprint, or refuses
//!   the Tool only for a reason validation leaves to signatures (a type that
//!   cannot cross, a schema past its budget); the fingerprint exactly when
//!   the canonical signature, and never the describe form alone;
//! - gives every Tool a TypeSpec that is valid on its own and reads back;
//! - can be served (`ServerCore::from_listing`) when every Tool has a
//!   fingerprint.

#![no_main]

use flow_core::fingerprint::{describe_entry, fingerprint, signature};
use flow_core::schema::SchemaForm;
use flow_core::types::parse::{listing_from_json, type_spec_from_json};
use flow_core::types::{listing_from_text, listing_to_json, type_spec_to_json, validate_type_spec, TypeSpec};
use flow_core::{Limits, Rule};
use flow_fuzz::{check_canonical, unbounded};
use flow_protocol::ServerCore;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let listing = match listing_from_text(data, &Limits::default()) {
        Ok(listing) => listing,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let written = listing_to_json(&listing);
    check_canonical(&written, &unbounded());
    let again = listing_from_json(&written).unwrap_or_else(|e| panic!("a written listing does not read back: {e}"));
    assert_eq!(again, listing, "a written listing reads back to another");

    let declarations = &listing.declarations;
    let mut all_served = true;
    for tool in &listing.tools {
        let describe = signature(tool, declarations, SchemaForm::Describe);
        let canonical = signature(tool, declarations, SchemaForm::Canonical);
        let print = fingerprint(tool, declarations);
        for e in [&describe, &canonical].into_iter().filter_map(|r| r.as_ref().err()) {
            assert!(
                matches!(e.rule, Rule::CannotCross | Rule::NotServable | Rule::TooLarge | Rule::TooDeep),
                "{}: a valid listing's signature refused with a rule validation owns: {e}",
                tool.tool
            );
        }
        match (&describe, &canonical, &print) {
            (Ok(d), Ok(c), Ok(p)) => {
                check_canonical(d, &unbounded());
                check_canonical(c, &unbounded());
                assert!(p.starts_with("sha256:") && p.len() == 71, "fingerprint {p}");
                assert!(describe_entry(tool, declarations).is_ok());
            }
            (_, Err(_), Err(_)) => {
                // The canonical form strips versions from $defs keys, so it
                // can clash where the describe form does not (a NAME spelled
                // like an instantiation, at another version): the Tool is
                // not served, though its describe form exists. A choice
                // pinned by core/tests/schema/generate.rs
                // (identities_differing_only_in_version_clash_in_the_canonical_form_only).
                assert!(describe_entry(tool, declarations).is_err());
                all_served = false;
            }
            _ => panic!("{}: the signature forms disagree: {describe:?} / {canonical:?} / {print:?}", tool.tool),
        }

        let spec = TypeSpec::for_tool(&listing, &tool.tool).expect("a Tool of the listing has a TypeSpec");
        validate_type_spec(&spec).unwrap_or_else(|e| panic!("{}: its TypeSpec is invalid: {e}", tool.tool));
        let spec_json = type_spec_to_json(&spec);
        let spec_again = type_spec_from_json(&spec_json)
            .unwrap_or_else(|e| panic!("{}: its TypeSpec does not read back: {e}", tool.tool));
        assert_eq!(spec_again, spec, "{}: its TypeSpec reads back to another", tool.tool);
    }
    if all_served {
        if let Err(e) = ServerCore::from_listing(&listing) {
            panic!("every Tool has a fingerprint, yet the listing cannot be served: {e}");
        }
    }
});
