//! `$defs` keys (`decisions.md` section 4, "Keys and placement").
//!
//! A named type's KEY is its declaration's identity. An instantiated generic
//! declaration adds its arguments as type text, `ID<ARG,...>`, so each
//! instantiation has its own entry holding its own substituted body. The
//! canonical form writes identities without `@VERSION` (section 5), including
//! those of named types inside the arguments. A `$ref` writes the key as a
//! JSON Pointer, then as a URI fragment ([`reference`]).

use std::borrow::Cow;

use crate::error::{Error, Result, Rule};
use crate::types::{identity_without_version, Declarations, Template, Term, TOOL_OWNER};

use super::{SchemaForm, MAX_TERM_DEPTH};

/// The `$ref` of the `$defs` entry `key` (`decisions.md` section 4): the JSON
/// Pointer `/$defs/KEY` with KEY escaped (RFC 6901: `~` as `~0`, then `/` as
/// `~1`), written as a URI fragment (RFC 3986), so that every UTF-8 byte
/// other than a letter, a digit or one of ``-._~!$&'()*+,;=:@/?`` is `%XX`.
/// Keys hold `<`, `>`, spaces and any text a NAME may: without the
/// percent-encoding a `$ref` would not be a URI reference, and standard
/// validators could not resolve it.
pub(super) fn reference(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 16);
    out.push_str("#/$defs/");
    for byte in escape_pointer(key).bytes() {
        if byte.is_ascii_alphanumeric() || FRAGMENT_SAFE.contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The bytes besides letters and digits that a URI fragment holds as they
/// are (RFC 3986: unreserved, sub-delims, `:`, `@`, `/`, `?`).
const FRAGMENT_SAFE: &[u8] = b"-._~!$&'()*+,;=:@/?";

/// The `$defs` key a [`reference`] points to: the inverse of [`reference`],
/// or `None` for anything it does not write (another prefix, a `/` inside
/// the key's token, a malformed `%XX`, bytes that are not UTF-8).
pub fn key_of_reference(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix("#/$defs/")?;
    let bytes = fragment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                decoded.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            // One reference token: a `/` would point below the entry.
            b'/' => return None,
            byte => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    let token = String::from_utf8(decoded).ok()?;
    Some(unescape_pointer(&token))
}

/// Escapes a key as one JSON Pointer reference token (RFC 6901): `~` as
/// `~0`, then `/` as `~1`.
fn escape_pointer(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 8);
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The inverse of [`escape_pointer`]: `~1` as `/`, then `~0` as `~`.
fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Resolves what type text needs: declarations, the form's identities, and the
/// names of the Tool's own type parameters.
pub(super) struct Keys<'a> {
    pub(super) declarations: &'a Declarations,
    pub(super) form: SchemaForm,
    pub(super) tool_generic: &'a [String],
}

impl<'a> Keys<'a> {
    pub(super) fn template(&self, declaration: &str) -> Result<&'a Template> {
        self.declarations
            .get(declaration)
            .ok_or_else(|| Error::new(Rule::Unresolved, format!("no declaration has the local id {declaration:?}")))
    }

    /// The identity as this form writes it.
    pub(super) fn identity<'t>(&self, template: &'t Template) -> Cow<'t, str> {
        match self.form {
            SchemaForm::Describe => Cow::Borrowed(&template.identity),
            SchemaForm::Canonical => Cow::Owned(identity_without_version(&template.identity)),
        }
    }

    /// The name of a Tool type parameter. Any other `Param` left in a term is a
    /// parameter used outside its own declaration, which has no value here.
    pub(super) fn param_name(&self, owner: &str, index: usize) -> Result<&'a str> {
        if owner != TOOL_OWNER {
            return Err(Error::new(
                Rule::ParamOwner,
                format!("parameter {index} of declaration {owner:?} is used outside that declaration"),
            ));
        }
        self.tool_generic.get(index).map(String::as_str).ok_or_else(|| {
            Error::new(
                Rule::ParamIndex,
                format!("the Tool has {} type parameters, so it has no parameter {index}", self.tool_generic.len()),
            )
        })
    }

    /// The KEY of the named type `declaration<args>`.
    pub(super) fn key(&self, declaration: &str, args: &[Term]) -> Result<String> {
        let mut out = String::new();
        self.write_key(declaration, args, 0, &mut out)?;
        Ok(out)
    }

    /// The type text of a term (`List<Int>`, `fn(Int)->Text`), also used to name
    /// types in messages.
    pub(super) fn type_text(&self, term: &Term) -> Result<String> {
        let mut out = String::new();
        self.write_type(term, 0, &mut out)?;
        Ok(out)
    }

    fn write_key(&self, declaration: &str, args: &[Term], depth: usize, out: &mut String) -> Result<()> {
        out.push_str(&self.identity(self.template(declaration)?));
        if !args.is_empty() {
            out.push('<');
            self.write_list(args, depth, out)?;
            out.push('>');
        }
        Ok(())
    }

    fn write_list(&self, terms: &[Term], depth: usize, out: &mut String) -> Result<()> {
        for (i, term) in terms.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.write_type(term, depth + 1, out)?;
        }
        Ok(())
    }

    fn write_type(&self, term: &Term, depth: usize, out: &mut String) -> Result<()> {
        if depth > MAX_TERM_DEPTH {
            return Err(super::too_deep());
        }
        match term {
            Term::Prim(prim) => out.push_str(prim.name()),
            Term::List(t) => self.write_wrapped("List", &[&**t], depth, out)?,
            Term::Set(t) => self.write_wrapped("Set", &[&**t], depth, out)?,
            Term::Option(t) => self.write_wrapped("Option", &[&**t], depth, out)?,
            Term::Task(t) => self.write_wrapped("Task", &[&**t], depth, out)?,
            Term::Dict(k, v) => self.write_wrapped("Dict", &[&**k, &**v], depth, out)?,
            Term::Tuple(items) => {
                out.push('(');
                self.write_list(items, depth, out)?;
                out.push(')');
            }
            Term::Function { params, result } => {
                out.push_str("fn(");
                self.write_list(params, depth, out)?;
                out.push_str(")->");
                self.write_type(result, depth + 1, out)?;
            }
            Term::Named { declaration, args } => self.write_key(declaration, args, depth, out)?,
            Term::Param { owner, index } => out.push_str(self.param_name(owner, *index)?),
        }
        Ok(())
    }

    /// `NAME<A,B>`.
    fn write_wrapped(&self, name: &str, inner: &[&Term], depth: usize, out: &mut String) -> Result<()> {
        out.push_str(name);
        out.push('<');
        for (i, term) in inner.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.write_type(term, depth + 1, out)?;
        }
        out.push('>');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Body, Prim};

    fn template(identity: &str, generic: &[&str]) -> Template {
        Template {
            name: crate::types::identity_name(identity).to_owned(),
            identity: identity.to_owned(),
            lexical_ordinal: 1,
            generic: generic.iter().map(|g| (*g).to_owned()).collect(),
            opaque: false,
            doc: None,
            body: Body::Host,
        }
    }

    fn named(declaration: &str, args: Vec<Term>) -> Term {
        Term::Named { declaration: declaration.to_owned(), args }
    }

    #[test]
    fn pointer_escaping_is_tilde_then_slash_only() {
        assert_eq!(escape_pointer("a~b/c d%e<f>"), "a~0b~1c d%e<f>");
        assert_eq!(escape_pointer("~1"), "~01");
    }

    #[test]
    fn references_are_percent_encoded_fragments() {
        assert_eq!(reference("x.org/r@1.0/m.flow.Page<Int>"), "#/$defs/x.org~1r@1.0~1m.flow.Page%3CInt%3E");
        assert_eq!(reference("a b%c\"d"), "#/$defs/a%20b%25c%22d");
        assert_eq!(reference("Zürich"), "#/$defs/Z%C3%BCrich");
        assert_eq!(reference("(A,B)->fn()"), "#/$defs/(A,B)-%3Efn()");
        assert_eq!(reference("~/?#[]{}|^`"), "#/$defs/~0~1?%23%5B%5D%7B%7D%7C%5E%60");
        // Everything that stays as it is.
        let safe = "az09-._!$&'()*+,;=:@?";
        assert_eq!(reference(safe), format!("#/$defs/{safe}"));
    }

    #[test]
    fn a_reference_gives_back_its_key() {
        for key in ["x.org/r@1.0/m.flow.Page<m.flow.Box<(Int,Text)>>", "a b%c\"d", "Zürich ~0 ~1 /", "%25", ""] {
            assert_eq!(key_of_reference(&reference(key)).as_deref(), Some(key), "{key}");
        }
        assert_eq!(key_of_reference("#/$defs/a/b"), None);
        assert_eq!(key_of_reference("#/$defs/a%2"), None);
        assert_eq!(key_of_reference("#/$defs/%FF"), None);
        assert_eq!(key_of_reference("#/definitions/a"), None);
    }

    #[test]
    fn type_text_has_every_form_and_no_spaces() {
        let mut declarations = Declarations::new();
        declarations.insert("1".into(), template("x.org/r@2.0.0/m.flow.Box", &["T"]));
        declarations.insert("2".into(), template("m.flow.Local", &[]));
        let generic = vec!["T".to_owned()];
        let text = |form, term: &Term| {
            Keys { declarations: &declarations, form, tool_generic: &generic }.type_text(term).unwrap()
        };
        let term = named(
            "1",
            vec![Term::Tuple(vec![
                Term::Dict(
                    Box::new(Term::Prim(Prim::Text)),
                    Box::new(Term::Set(Box::new(Term::Prim(Prim::JsonValue)))),
                ),
                Term::Function {
                    params: vec![Term::Prim(Prim::Int), Term::Option(Box::new(named("2", vec![])))],
                    result: Box::new(Term::Task(Box::new(Term::List(Box::new(Term::Param {
                        owner: TOOL_OWNER.into(),
                        index: 0,
                    }))))),
                },
            ])],
        );
        assert_eq!(
            text(SchemaForm::Describe, &term),
            "x.org/r@2.0.0/m.flow.Box<(Dict<Text,Set<json.Value>>,fn(Int,Option<m.flow.Local>)->Task<List<T>>)>"
        );
        assert_eq!(
            text(SchemaForm::Canonical, &term),
            "x.org/r/m.flow.Box<(Dict<Text,Set<json.Value>>,fn(Int,Option<m.flow.Local>)->Task<List<T>>)>"
        );
        assert_eq!(
            text(SchemaForm::Canonical, &Term::Function { params: vec![], result: Box::new(Term::Prim(Prim::Unit)) }),
            "fn()->Unit"
        );
    }

    #[test]
    fn unresolved_names_and_stray_parameters_are_errors() {
        let declarations = Declarations::new();
        let keys = Keys { declarations: &declarations, form: SchemaForm::Describe, tool_generic: &[] };
        assert_eq!(keys.type_text(&named("9", vec![])).unwrap_err().rule, Rule::Unresolved);
        let stray = Term::Param { owner: "3".into(), index: 0 };
        assert_eq!(keys.type_text(&stray).unwrap_err().rule, Rule::ParamOwner);
        let missing = Term::Param { owner: TOOL_OWNER.into(), index: 0 };
        assert_eq!(keys.type_text(&missing).unwrap_err().rule, Rule::ParamIndex);
    }
}
