//! The JavaScript classes native code builds and recognizes: `Decimal`,
//! `Instant`, `Duration`, `HostToken`, `Some`, `FlowSet`, `FlowMap` and
//! `FlowError` live in `lib/` (plain JavaScript, so their methods cost no
//! boundary crossing), and `lib/index.js` registers them here once, at load.
//!
//! References are kept per thread: each Node thread (the main one, or a
//! worker) has its own environment and loads the module for itself.

use std::cell::RefCell;

use napi::sys;
use napi::{Error, Result, Status};

use crate::js::{Js, Raw};

macro_rules! registry {
    ($($field:ident: $name:literal),* $(,)?) => {
        /// What `register` received, as references.
        struct Refs { $($field: sys::napi_ref,)* }

        /// The registered values, dereferenced for one native call.
        #[derive(Clone, Copy)]
        pub struct Classes { $(pub $field: Raw,)* }

        const NAMES: &[&str] = &[$($name,)*];

        fn refs_from(js: Js, object: Raw) -> Result<Refs> {
            Ok(Refs { $($field: {
                let value = js.get_named(object, $name)?;
                if js.kind(value)? == crate::js::Kind::Undefined {
                    return Err(Error::new(Status::InvalidArg, format!("register: {} is missing", $name)));
                }
                js.reference(value)?
            },)* })
        }

        fn deref_all(js: Js, refs: &Refs) -> Result<Classes> {
            Ok(Classes { $($field: js.deref(refs.$field)?,)* })
        }
    };
}

registry! {
    decimal: "Decimal",
    trusted: "trusted",
    instant: "Instant",
    duration: "Duration",
    host_token: "HostToken",
    some: "Some",
    flow_set: "FlowSet",
    flow_map: "FlowMap",
    flow_error: "FlowError",
    map: "Map",
    set: "Set",
    set_to_array: "setToArray",
    map_to_array: "mapToArray",
    from_tape: "fromTape",
}

thread_local! {
    static REGISTERED: RefCell<Option<Refs>> = const { RefCell::new(None) };
}

/// Keeps the classes of `object` (its members named as in [`NAMES`]).
pub fn register(js: Js, object: Raw) -> Result<()> {
    let refs = refs_from(js, object)?;
    REGISTERED.with(|r| *r.borrow_mut() = Some(refs));
    Ok(())
}

impl Classes {
    pub fn get(js: Js) -> Result<Classes> {
        REGISTERED.with(|r| match &*r.borrow() {
            Some(refs) => deref_all(js, refs),
            None => Err(Error::new(
                Status::GenericFailure,
                format!(
                    "@flow/toolkit: load the package (require('@flow/toolkit')), not index.js alone; it registers {}",
                    NAMES.join(", ")
                ),
            )),
        })
    }

    /// A `FlowError` for a flow-core refusal, thrown.
    pub fn throw_flow(&self, js: Js, error: &flow_core::Error) -> Error {
        match self.flow_error(js, error) {
            Ok(value) => js.throw(value),
            Err(e) => e,
        }
    }

    pub fn flow_error(&self, js: Js, error: &flow_core::Error) -> Result<Raw> {
        let args = [js.string(&error.path.to_string())?, js.string(error.rule.code())?, js.string(&error.message)?];
        js.new_instance(self.flow_error, &args)
    }
}

/// Throws a flow-core refusal as a `FlowError` (or, before registration, as
/// an Error with the same text).
pub fn throw_flow(js: Js, error: &flow_core::Error) -> Error {
    match Classes::get(js) {
        Ok(classes) => classes.throw_flow(js, error),
        Err(_) => Error::new(Status::InvalidArg, error.to_string()),
    }
}
