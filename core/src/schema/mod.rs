//! JSON Schemas of types (`host-boundary.md`, "Schemas"; `decisions.md` section
//! 4, which fixes every member, because fingerprints hash these schemas).
//!
//! - `kind_table`: the fixed JSON shape of each kind of schema.
//! - `key`: `$defs` keys (identities with type-text arguments) and how a
//!   `$ref` writes them (a JSON Pointer, percent-encoded as a URI fragment).
//! - `generate`: turning one term into one standalone schema, with a `$defs`
//!   entry for every named type it reaches.
//!
//! The schemas are generated from the validated type model. Generation checks
//! what it needs to stay total (a missing declaration, an arity or a parameter
//! out of range is an error, never a panic), but leaves the rest of validation
//! to the types module.

mod generate;
mod key;
mod kind_table;

pub use key::key_of_reference;

use crate::error::{Error, Result, Rule};
use crate::json::Json;
use crate::limits::Limits;
use crate::types::{Declarations, Term};

/// How deeply terms may nest while a schema is generated, in value positions
/// and in the type text of keys. It keeps generation from exhausting the stack.
/// In a value position a schema nests at least as deeply as its term, and one
/// past the default depth limit (128) cannot be read by a receiver, so there
/// this bound, twice that, refuses nothing that could be sent; in key text
/// (arguments no value uses) it is only far beyond any real type.
const MAX_TERM_DEPTH: usize = 2 * Limits::DEFAULT.max_depth;

/// A bound on the work of one schema: one unit per term turned into a schema and
/// per byte of each `$defs` key written. Instantiations can multiply without
/// recursion (`A<T>` holding `B<(T, T)>`, `B<T>` holding `C<(T, T)>`, ...), so the
/// size of a schema is not bounded by the size of its declarations. Every unit
/// is at least a byte of the written schema, so a schema past this bound would
/// not fit in one protocol message at the default size limit (16 MiB).
const MAX_WORK: usize = Limits::DEFAULT.max_bytes;

fn too_deep() -> Error {
    Error::new(Rule::NotServable, format!("types nest more than {MAX_TERM_DEPTH} levels deep, too deep to be sent"))
}

fn too_large(budget: usize) -> Error {
    Error::new(Rule::NotServable, format!("the schema would be larger than {budget} bytes, too large to be sent"))
}

/// Which of the two written forms of a schema to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SchemaForm {
    /// As `describe` sends it: doc comments become `description`, and `$defs`
    /// keys are full identities with their `@VERSION`.
    Describe,
    /// As the canonical signature holds it: no `description` anywhere and no
    /// `@VERSION` in keys, so that neither a doc comment nor a new version of a
    /// repository moves a fingerprint. Produced directly, never by editing the
    /// describe form's text, so a property that happens to be named
    /// `description` or a type name holding `@` cannot be damaged.
    Canonical,
}

/// The standalone schema of `term` in `form`.
///
/// The root carries `$defs` with exactly the named types reachable from it (no
/// `$defs` member when there are none), and no `$schema`, `$id` or `title`.
/// `tool_generic` names the Tool's own type parameters: a `Param` whose owner
/// is `tool` is written `{"$param": NAME}`.
///
/// Refuses with `Rule::CannotCross` a type that cannot cross
/// ([`crate::types::crossing`](mod@crate::types::crossing): a function, Task or nondata type in a value
/// position, a host token in a Set element or a Dict key), and with
/// `Rule::NotServable` two different types that would share one `$defs` key
/// and a schema too large or too deep to be sent at all.
pub fn schema_of(term: &Term, declarations: &Declarations, form: SchemaForm, tool_generic: &[String]) -> Result<Json> {
    crate::types::crossing(term, declarations, tool_generic)?;
    generate::Generator::new(declarations, form, tool_generic).standalone(term)
}

/// The standalone schema of an object with one member per `(name, term)`,
/// read as a record's fields: a member whose term is an Option is not
/// required and has its payload's schema. Not part of the contract's schemas:
/// how a front that takes a Tool's args as a record (MCP's `arguments`)
/// describes them.
pub fn object_schema(
    members: &[(String, Term)],
    declarations: &Declarations,
    form: SchemaForm,
    tool_generic: &[String],
) -> Result<Json> {
    for (name, ty) in members {
        crate::types::crossing(ty, declarations, tool_generic)
            .map_err(|e| Error { message: format!("{name}: {}", e.message), ..e })?;
    }
    let fields: Vec<crate::types::Field> = members
        .iter()
        .map(|(name, ty)| crate::types::Field { name: name.clone(), ty: ty.clone(), doc: None })
        .collect();
    generate::Generator::new(declarations, form, tool_generic).standalone_object(&fields)
}

/// A generic call's schema view must agree with the success type's projection
/// under Schemas (`host-boundary.md`, "Type descriptions"): the describe-form
/// schema of the view's concrete `ok` term over the view's own declarations.
pub fn check_call_schema(view: &crate::types::CallView, schema: &Json) -> Result<()> {
    let expected = schema_of(&view.ok, &view.declarations, SchemaForm::Describe, &[])?;
    if expected != *schema {
        return Err(Error::new(
            Rule::ViewMismatch,
            format!(
                "the call's schema is not the schema of its success type: expected {}",
                abbreviate(&expected.to_canonical())
            ),
        ));
    }
    Ok(())
}

fn abbreviate(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}
