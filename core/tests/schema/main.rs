//! Schemas (`flow_core::schema`), one file per module exercised: `kind_table`
//! (one test per row of `decisions.md` section 4), `key` (`$defs` keys),
//! `generate` (`$defs` placement, descriptions, recursion, refusals), and
//! `properties` over random declaration graphs.

// One file per module of `flow_core::schema` exercised, and the properties
// over random declaration graphs; the builders below are shared.
mod generate;
mod key;
mod kind_table;
mod properties;

#[path = "../support/mod.rs"]
mod support;

use flow_core::json::Json;
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::types::{Body, Constructor, Declarations, Field, Payload, Prim, Template, Term};
use flow_core::{Error, Rule};
use support::weather_model::{term_text, weather};

// Building declarations by hand. Terms are written as in the JSON of a listing.

fn template(identity: &str, generic: &[&str], body: Body) -> Template {
    Template {
        name: flow_core::types::identity_name(identity).to_owned(),
        identity: identity.to_owned(),
        lexical_ordinal: 1,
        generic: generic.iter().map(|g| (*g).to_owned()).collect(),
        opaque: false,
        doc: None,
        body,
    }
}

fn documented(mut template: Template, doc: &str) -> Template {
    template.doc = Some(doc.to_owned());
    template
}

/// A term from its JSON text, or a bare primitive name (`Int`).
fn ty(text: &str) -> Term {
    Prim::from_name(text).map_or_else(|| term_text(text), Term::Prim)
}

fn field(name: &str, text: &str) -> Field {
    Field { name: name.to_owned(), ty: ty(text), doc: None }
}

fn doc_field(name: &str, ty: &str, doc: &str) -> Field {
    Field { doc: Some(doc.to_owned()), ..field(name, ty) }
}

fn record(fields: Vec<Field>) -> Body {
    Body::Record { fields }
}

fn constructor(name: &str, doc: Option<&str>, payload: Option<Payload>) -> Constructor {
    Constructor { name: name.to_owned(), doc: doc.map(str::to_owned), payload }
}

fn declarations(templates: Vec<(&str, Template)>) -> Declarations {
    templates.into_iter().map(|(id, t)| (id.to_owned(), t)).collect()
}

/// `{"Named": {"declaration": id, "args": [args...]}}`.
fn named(id: &str, args: &[&str]) -> String {
    format!(r##"{{"Named": {{"declaration": "{id}", "args": [{}]}}}}"##, args.join(","))
}

const PARAM_0: &str = r##"{"Param": {"owner": "tool", "index": 0}}"##;

fn param_of(owner: &str, index: usize) -> String {
    format!(r##"{{"Param": {{"owner": "{owner}", "index": {index}}}}}"##)
}

fn generate(declarations: &Declarations, term: &str, form: SchemaForm, generic: &[&str]) -> Result<Json, Error> {
    let generic: Vec<String> = generic.iter().map(|g| (*g).to_owned()).collect();
    schema_of(&term_text(term), declarations, form, &generic)
}

/// The canonical-form schema's canonical text.
fn canonical(declarations: &Declarations, term: &str) -> String {
    generate(declarations, term, SchemaForm::Canonical, &["T"]).unwrap().to_canonical()
}

fn describe(declarations: &Declarations, term: &str) -> String {
    generate(declarations, term, SchemaForm::Describe, &["T"]).unwrap().to_canonical()
}

fn refusal(declarations: &Declarations, term: &str) -> Error {
    generate(declarations, term, SchemaForm::Canonical, &["T"]).unwrap_err()
}

fn none() -> Declarations {
    Declarations::new()
}
