//! One standalone schema: the term at the root in a value position, and one
//! `$defs` entry per named type reached from it.
//!
//! Entries are keyed by KEY (`key.rs`) and generated once, from a worklist
//! rather than by recursion: a recursive type meets its own key again and
//! becomes a `$ref`, and a long chain of declarations costs no stack. Each entry
//! is generated from the template's body with the arguments substituted, so the
//! Option-field rule sees the substituted type, and an argument the body never
//! uses in a value position (a function, say) only appears in the key's text.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::rc::Rc;

use crate::error::{Error, Result, Rule};
use crate::json::{Json, Object};
use crate::types::{Body, Constructor, Declarations, Field, Payload, Prim, Template, Term};

use super::key::Keys;
use super::{kind_table, too_deep, too_large, SchemaForm, MAX_TERM_DEPTH, MAX_WORK};

/// A named type, `declaration<args>`: what a key stands for.
#[derive(Debug)]
struct Named {
    declaration: String,
    args: Vec<Term>,
}

pub(super) struct Generator<'a> {
    keys: Keys<'a>,
    /// Every key met so far and the type it stands for, to tell a recursive
    /// reference (the same type) from a clash (another type with that key).
    /// (Shared with `pending`: the arguments of a large instantiation are
    /// held once.)
    defs: BTreeMap<String, Rc<Named>>,
    /// Keys met whose entries are not generated yet.
    pending: Vec<(String, Rc<Named>)>,
    entries: Vec<(String, Json)>,
    /// Units of work spent, and the most that may be (`MAX_WORK`).
    work: usize,
    budget: usize,
}

impl<'a> Generator<'a> {
    pub(super) fn new(declarations: &'a Declarations, form: SchemaForm, tool_generic: &'a [String]) -> Generator<'a> {
        Generator {
            keys: Keys { declarations, form, tool_generic },
            defs: BTreeMap::new(),
            pending: Vec::new(),
            entries: Vec::new(),
            work: 0,
            budget: MAX_WORK,
        }
    }

    /// A smaller budget, so tests can reach it cheaply.
    #[cfg(test)]
    fn with_budget(self, budget: usize) -> Generator<'a> {
        Generator { budget, ..self }
    }

    /// The schema of `root`, with `$defs` holding exactly the named types it reaches.
    pub(super) fn standalone(mut self, root: &Term) -> Result<Json> {
        let schema = self.value(root, 0)?;
        self.with_defs(schema)
    }

    /// The schema of an object holding `fields` as a record does (the
    /// Option-field rule included), with `$defs` holding exactly the named
    /// types they reach.
    pub(super) fn standalone_object(mut self, fields: &[Field]) -> Result<Json> {
        // No declaration owns these fields, so there is nothing to substitute.
        let schema = self.object(fields, &Scope { owner: "", args: &[] })?;
        self.with_defs(schema)
    }

    /// Generates the entries of every key met and puts them under `$defs`.
    fn with_defs(mut self, mut schema: Json) -> Result<Json> {
        while let Some((key, named)) = self.pending.pop() {
            let entry = self.entry(&named).map_err(|e| within(e, format_args!("in {key}")))?;
            self.entries.push((key, entry));
        }
        if !self.entries.is_empty() {
            // Keys are unique: each was pushed once, when first met.
            let defs = Object::from_members(self.entries)
                .map_err(|key| Error::new(Rule::NotServable, format!("the $defs key {key:?} was generated twice")))?;
            // Only Never's schema is not an object, and Never reaches no named type.
            if let Json::Object(members) = &mut schema {
                members.insert("$defs", Json::Object(defs));
            }
        }
        Ok(schema)
    }

    fn spend(&mut self, units: usize) -> Result<()> {
        self.work = self.work.saturating_add(units);
        if self.work > self.budget {
            return Err(too_large(self.budget));
        }
        Ok(())
    }

    fn is_describe(&self) -> bool {
        self.keys.form == SchemaForm::Describe
    }

    /// Adds a doc comment as `description`, in the describe form only.
    fn described(&self, schema: Json, doc: &Option<String>) -> Json {
        if self.is_describe() {
            kind_table::with_description(schema, doc.as_deref())
        } else {
            schema
        }
    }

    /// The schema of a term in a value position.
    fn value(&mut self, term: &Term, depth: usize) -> Result<Json> {
        if depth > MAX_TERM_DEPTH {
            return Err(too_deep());
        }
        self.spend(1)?;
        let inner = depth + 1;
        Ok(match term {
            Term::Prim(prim) => kind_table::primitive(*prim),
            Term::List(t) => kind_table::list(self.value(t, inner)?),
            Term::Set(t) => kind_table::set(self.value(t, inner)?),
            Term::Option(t) => kind_table::option(self.value(t, inner)?),
            // Only a Text key is a JSON object member name; every other key,
            // a Tool type parameter included, uses the array of pairs.
            Term::Dict(k, v) if **k == Term::Prim(Prim::Text) => kind_table::text_dict(self.value(v, inner)?),
            Term::Dict(k, v) => kind_table::pair_dict(self.value(k, inner)?, self.value(v, inner)?),
            Term::Tuple(items) => {
                kind_table::tuple(items.iter().map(|t| self.value(t, inner)).collect::<Result<Vec<_>>>()?)
            }
            Term::Param { owner, index } => kind_table::param(self.keys.param_name(owner, *index)?),
            Term::Named { declaration, args } => self.reference(declaration, args)?,
            Term::Function { .. } => return Err(self.no_encoding(term, "a function")),
            Term::Task(_) => return Err(self.no_encoding(term, "a Task")),
        })
    }

    fn no_encoding(&self, term: &Term, what: &str) -> Error {
        let text = self.keys.type_text(term).unwrap_or_else(|_| what.to_owned());
        // Unreachable through `schema_of`, which asks `types::crossing` first.
        Error::new(Rule::CannotCross, format!("{text} is {what}, which has no encoding, so it cannot cross"))
    }

    /// A `$ref` to the entry of `declaration<args>`, registering the entry the
    /// first time its key is met.
    fn reference(&mut self, declaration: &str, args: &[Term]) -> Result<Json> {
        let key = self.keys.key(declaration, args)?;
        self.spend(key.len())?;
        match self.defs.get(&key) {
            Some(known) if known.declaration == declaration && known.args == args => {}
            Some(known) => return Err(self.clash(&key, known, declaration, args)),
            None => {
                let named = Rc::new(Named { declaration: declaration.to_owned(), args: args.to_vec() });
                self.defs.insert(key.clone(), Rc::clone(&named));
                self.pending.push((key.clone(), named));
            }
        }
        Ok(kind_table::reference(&key))
    }

    /// Two different types whose keys are spelled alike (two declarations with
    /// one identity, or a NAME spelled like an instantiation, `Box<Int>`): one
    /// `$defs` entry cannot describe both, so the Tool cannot be served.
    fn clash(&self, key: &str, known: &Named, declaration: &str, args: &[Term]) -> Error {
        let name = |declaration: &str, args: &[Term]| {
            let identity = self.keys.template(declaration).map_or("?", |t| t.identity.as_str());
            let mut text = format!("declaration {declaration:?} ({identity})");
            if !args.is_empty() {
                let args: Vec<String> =
                    args.iter().map(|a| self.keys.type_text(a).unwrap_or_else(|_| format!("{a:?}"))).collect();
                text.push_str(&format!(" applied to <{}>", args.join(",")));
            }
            text
        };
        Error::new(
            Rule::NotServable,
            format!(
                "two different types would share the $defs key {key:?}: {} and {}",
                name(&known.declaration, &known.args),
                name(declaration, args)
            ),
        )
    }

    /// The `$defs` entry of one named type.
    fn entry(&mut self, named: &Named) -> Result<Json> {
        let template = self.keys.template(&named.declaration)?;
        let scope = Scope::new(template, &named.declaration, &named.args)?;
        let entry = match &template.body {
            Body::Record { fields } => self.object(fields, &scope)?,
            Body::Enum { constructors } => self.one_of(constructors, &scope)?,
            // A host token is whatever JSON its host chose.
            Body::Host => kind_table::any(),
            Body::Nondata => {
                return Err(Error::new(
                    Rule::CannotCross,
                    format!("{} is a nondata type, which has no encoding, so it cannot cross", template.identity),
                ))
            }
        };
        Ok(self.described(entry, &template.doc))
    }

    /// A record, or a named payload: the Option-field rule applies to each
    /// field's substituted type.
    fn object(&mut self, fields: &[Field], scope: &Scope) -> Result<Json> {
        let mut properties = Vec::with_capacity(fields.len());
        let mut required = Vec::new();
        for field in fields {
            let ty = scope.substitute(&field.ty)?;
            let schema = match &ty {
                Term::Option(inner) => self.value(inner, 1),
                ty => {
                    required.push(field.name.clone());
                    self.value(ty, 0)
                }
            }
            .map_err(|e| within(e, format_args!("field {}", field.name)))?;
            properties.push((field.name.clone(), self.described(schema, &field.doc)));
        }
        let properties = Object::from_members(properties)
            .map_err(|name| Error::new(Rule::DuplicateName, format!("two fields are named {name:?}")))?;
        Ok(kind_table::object(properties, required))
    }

    /// An enum: one branch per constructor, in declaration order.
    fn one_of(&mut self, constructors: &[Constructor], scope: &Scope) -> Result<Json> {
        if constructors.is_empty() {
            return Err(Error::new(Rule::Invalid, "an enum has at least one constructor"));
        }
        let mut branches = Vec::with_capacity(constructors.len());
        for constructor in constructors {
            let branch = match &constructor.payload {
                None => kind_table::constant(&constructor.name),
                Some(payload) => {
                    let payload = self
                        .payload(payload, scope)
                        .map_err(|e| within(e, format_args!("constructor {}", constructor.name)))?;
                    kind_table::single_member(&constructor.name, payload)
                }
            };
            branches.push(self.described(branch, &constructor.doc));
        }
        Ok(kind_table::one_of(branches))
    }

    /// One positional part is written as itself, several as a tuple, named
    /// parts as a record.
    fn payload(&mut self, payload: &Payload, scope: &Scope) -> Result<Json> {
        match payload {
            Payload::Named(fields) => self.object(fields, scope),
            Payload::Positional(parts) => {
                let mut schemas = Vec::with_capacity(parts.len());
                for part in parts {
                    schemas.push(self.value(&scope.substitute(part)?, 1)?);
                }
                match schemas.len() {
                    0 => Err(Error::new(Rule::Invalid, "a positional payload has at least one part")),
                    1 => Ok(schemas.remove(0)),
                    _ => Ok(kind_table::tuple(schemas)),
                }
            }
        }
    }
}

/// A declaration's parameters bound to one instantiation's arguments.
struct Scope<'n> {
    owner: &'n str,
    args: &'n [Term],
}

impl<'n> Scope<'n> {
    /// Checks the arity here, so that substitution can never index past the arguments.
    fn new(template: &Template, owner: &'n str, args: &'n [Term]) -> Result<Scope<'n>> {
        if template.generic.len() != args.len() {
            return Err(Error::new(
                Rule::Arity,
                format!("{} takes {} type arguments, not {}", template.identity, template.generic.len(), args.len()),
            ));
        }
        Ok(Scope { owner, args })
    }

    /// The term with this declaration's parameters replaced by the arguments.
    fn substitute(&self, term: &Term) -> Result<Term> {
        let mut out_of_range = None;
        term.walk(&mut |t| match t {
            Term::Param { owner, index } if owner == self.owner && *index >= self.args.len() => {
                out_of_range = Some(*index)
            }
            _ => {}
        });
        if let Some(index) = out_of_range {
            return Err(Error::new(
                Rule::ParamIndex,
                format!(
                    "declaration {:?} has {} type parameters, so it has no parameter {index}",
                    self.owner,
                    self.args.len()
                ),
            ));
        }
        Ok(term.substitute(self.owner, self.args))
    }
}

/// Prefixes an error's message with where it happened.
fn within(error: Error, place: impl Display) -> Error {
    Error { message: format!("{place}: {}", error.message), ..error }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param() -> Term {
        Term::Param { owner: "1".into(), index: 0 }
    }

    /// `Double<T>` holds `Double<(T, T)>`: each instantiation's key is twice
    /// as long as the last. (Expanding recursion, refused by validation; the
    /// same growth is reachable without recursion through a chain of
    /// declarations.)
    #[test]
    fn doubling_instantiations_hit_the_work_bound() {
        let next = Term::Named { declaration: "1".into(), args: vec![Term::Tuple(vec![param(), param()])] };
        let template = Template {
            name: "Double".into(),
            identity: "f.flow.Double".into(),
            lexical_ordinal: 1,
            generic: vec!["T".into()],
            opaque: false,
            doc: None,
            body: Body::Record { fields: vec![Field { name: "next".into(), ty: next, doc: None }] },
        };
        let declarations: Declarations = [("1".to_owned(), template)].into_iter().collect();
        let root = Term::Named { declaration: "1".into(), args: vec![Term::Prim(Prim::Int)] };
        let error = Generator::new(&declarations, SchemaForm::Canonical, &[])
            .with_budget(100_000)
            .standalone(&root)
            .unwrap_err();
        assert_eq!(error.rule, Rule::NotServable);
        assert!(error.message.contains("larger than 100000 bytes"), "{}", error.message);
    }
}
