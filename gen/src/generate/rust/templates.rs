//! The askama templates of `templates/rust/`, one per generated file; each
//! includes the templates of the concepts it holds (a record, an enum, their
//! codecs). Their fields are text computed in Rust.

use askama::Template;

use super::items::Item;
use super::methods::Method;

#[derive(Template)]
#[template(path = "rust/types.rs", escape = "none")]
pub struct TypesFile<'a> {
    pub header: &'a str,
    pub project: &'a str,
    pub imports: String,
    pub items: &'a [Item],
}

#[derive(Template)]
#[template(path = "rust/codec.rs", escape = "none")]
pub struct CodecFile<'a> {
    pub header: &'a str,
    pub items: &'a [Item],
    /// Some item is a record or an enum, with impls that use the imports
    /// (a host token's alias has none).
    pub converts: bool,
}

#[derive(Template)]
#[template(path = "rust/tools.rs", escape = "none")]
pub struct ToolsFile<'a> {
    pub header: &'a str,
    pub project: &'a str,
    pub imports: String,
    pub trait_name: &'a str,
    pub methods: &'a [Method],
}

#[derive(Template)]
#[template(path = "rust/serve.rs", escape = "none")]
pub struct ServeFile<'a> {
    pub header: &'a str,
    pub project: &'a str,
    pub trait_name: &'a str,
    pub methods: &'a [Method],
    /// The array of (identity, handler) pairs.
    pub handlers: String,
}

#[derive(Template)]
#[template(path = "rust/metadata.rs", escape = "none")]
pub struct MetadataFile<'a> {
    pub header: &'a str,
    pub methods: &'a [Method],
    /// `GET_FORECAST, ECHO`.
    pub constants: String,
}

#[derive(Template)]
#[template(path = "rust/lib.rs", escape = "none")]
pub struct LibFile<'a> {
    pub header: &'a str,
    pub project: &'a str,
    pub trait_name: &'a str,
}

#[derive(Template)]
#[template(path = "rust/implementation.rs", escape = "none")]
pub struct ImplementationFile<'a> {
    pub project: &'a str,
    pub imports: String,
    pub implementation: &'a str,
    pub trait_name: &'a str,
    pub methods: &'a [Method],
}

#[derive(Template)]
#[template(path = "rust/main.rs", escape = "none")]
pub struct MainFile<'a> {
    pub project: &'a str,
    pub command: &'a str,
    pub lib_name: &'a str,
    pub implementation: &'a str,
}

#[derive(Template)]
// Not named Cargo.toml: cargo package leaves out folders holding one.
#[template(path = "rust/Cargo.toml.in", escape = "none")]
pub struct CargoFile<'a> {
    pub project: &'a str,
    pub crate_name: &'a str,
    /// The runtime dependency: a version requirement or a path table.
    pub runtime: &'a str,
    /// Where that dependency comes from, as a TOML comment.
    pub runtime_comment: &'a str,
}
