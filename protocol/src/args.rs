//! A call's `args` object against its Tool's parameters: each parameter
//! present, no other member, every refusal's path from the message root
//! (`$.params.args.days`). The core's decoding of args and a handler that
//! decodes its own (`flow_runtime`) both take them apart with these.

use flow_core::error::{Error, Path, Result, Rule};
use flow_core::json::{Json, Object};

fn arg_path(name: &str) -> Path {
    Path::root().key("params").key("args").key(name)
}

/// The parameter `name`'s member, taken out of `args`; refused when missing.
pub fn take(args: &mut Object, name: &str) -> Result<Json> {
    args.remove(name).ok_or_else(|| Error::at(arg_path(name), Rule::MissingField, "missing argument"))
}

/// A refusal of parameter `name`'s value, put under its path.
pub fn under(error: Error, name: &str) -> Error {
    error.under_path(&arg_path(name))
}

/// Refuses what is left of `args` once every parameter was taken.
pub fn no_others(args: &Object) -> Result<()> {
    match args.keys().next() {
        Some(extra) => Err(Error::at(arg_path(extra), Rule::Shape, "not a parameter of the Tool")),
        None => Ok(()),
    }
}
