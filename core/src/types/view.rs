//! Agreement of a generic call's types view with the served TypeSpec
//! (host-boundary.md, "Type descriptions": "Bindings and parameter
//! names/counts/order must match the served TypeSpec. Its signature
//! instantiated with the bindings must agree with the concrete roots.").
//!
//! The view lives in the caller's local ids, the served TypeSpec in the
//! implementation's; the two are never merged. Comparison walks a served term
//! and a view term side by side:
//! - a served `Param` of `tool` stands for its binding, a view term, which
//!   must equal the view's term exactly (same local ids: in one description a
//!   local id names one template, and same-spelling private declarations are
//!   distinct);
//! - a served `Named` and a view `Named` must name templates with the same
//!   identity, compared without versions (the fingerprint does not move for a
//!   new version of a repository, so a caller built against another version
//!   may still be served), and their arguments must agree;
//! - every served and view template paired this way must agree: lexical
//!   ordinal, generic arity, opaque, kind and the ordered semantic members
//!   (names and types of fields, constructors and payload parts); docs and
//!   generic parameter names are ignored.
//!
//! Pairs are compared once each, from a work queue, so recursive types are
//! compared on the finite graph. A view template with a served identity is
//! compared even when the roots do not lead to it through served types; a
//! view template with no served identity (caller-private) gets the
//! structural validation of [`super::validate::validate_call_view`] only.
//!
//! Not here: the call's schema view must agree with the success type's
//! projection under Schemas. That is the schema module's check, run after
//! this one (hook: `crate::schema`'s view check, given the same view).

use std::collections::{HashMap, VecDeque};

use super::model::*;
use super::rules::{quote, MAX_TERM_DEPTH};
use super::validate::validate_call_view;
use super::write::term_text;
use crate::error::{Error, Path, Result, Rule};

fn mismatch(message: impl Into<String>) -> Error {
    Error::new(Rule::ViewMismatch, message)
}

/// Checks a call's types view against the TypeSpec the implementation serves
/// (which is expected to be valid: `TypeSpec::for_tool` of a valid listing,
/// or `type_spec_from_json`). The view is validated on its own first; then
/// every disagreement is `Rule::ViewMismatch`, placed in the view.
pub fn check_call_view(served: &TypeSpec, view: &CallView) -> Result<()> {
    validate_call_view(view)?;

    if view.bindings.len() != served.generic.len() {
        return Err(mismatch(format!(
            "the view binds {} type parameters, the served Tool declares {} ({})",
            view.bindings.len(),
            served.generic.len(),
            served.generic.join(", ")
        ))
        .under_key("bindings"));
    }
    for (i, ((name, _), expected)) in view.bindings.iter().zip(&served.generic).enumerate() {
        if name != expected {
            return Err(mismatch(format!(
                "binding {i} is named {}, the served Tool's type parameter {i} is {}",
                quote(name),
                quote(expected)
            ))
            .under_key("name")
            .under_index(i)
            .under_key("bindings"));
        }
    }
    if view.params.len() != served.params.len() {
        return Err(mismatch(format!(
            "the view has {} parameters, the served Tool has {}",
            view.params.len(),
            served.params.len()
        ))
        .under_key("params"));
    }
    for (i, (param, expected)) in view.params.iter().zip(&served.params).enumerate() {
        if param.name != expected.name {
            return Err(mismatch(format!(
                "parameter {i} is named {}, the served Tool's parameter {i} is {}",
                quote(&param.name),
                quote(&expected.name)
            ))
            .under_key("name")
            .under_index(i)
            .under_key("params"));
        }
    }

    // Served identities, without versions, to their local ids. A view may
    // claim each at most once: two view templates claiming one served
    // declaration are conflicting templates.
    let served_ids: HashMap<String, &str> =
        served.declarations.iter().map(|(id, t)| (identity_without_version(&t.identity), id.as_str())).collect();
    let mut claimed: HashMap<String, &str> = HashMap::new();
    for (id, template) in &view.declarations {
        let key = identity_without_version(&template.identity);
        if served_ids.contains_key(&key) {
            if let Some(first) = claimed.insert(key, id) {
                return Err(mismatch(format!(
                    "conflicting templates: declarations {} and {} both claim the served identity {}",
                    quote(first),
                    quote(id),
                    quote(&template.identity)
                ))
                .under_path(&Path::root().key("declarations").key(id.as_str()).key("identity")));
            }
        }
    }

    let mut matcher = Matcher { served, view, paired: HashMap::new(), queue: VecDeque::new() };
    for (i, (param, expected)) in view.params.iter().zip(&served.params).enumerate() {
        matcher
            .terms(&expected.ty, &param.ty, Mode::Roots, 0)
            .map_err(|e| e.under_key("type").under_index(i).under_key("params"))?;
    }
    matcher.terms(&served.ok, &view.ok, Mode::Roots, 0).map_err(|e| e.under_key("ok"))?;
    matcher.terms(&served.err, &view.err, Mode::Roots, 0).map_err(|e| e.under_key("err"))?;
    matcher.drain()?;

    // View templates that claim a served identity agree with it, whether or
    // not the served roots lead to them (a caller-private type may hold one).
    for (id, template) in &view.declarations {
        if let Some(served_id) = served_ids.get(&identity_without_version(&template.identity)) {
            matcher.pair(served_id, id).map_err(|e| e.under_path(&declaration_path(id)))?;
            matcher.drain()?;
        }
    }
    Ok(())
}

fn declaration_path(id: &str) -> Path {
    Path::root().key("declarations").key(id)
}

/// How a served Param is read.
#[derive(Clone, Copy)]
enum Mode<'a> {
    /// In the roots: a Param of `tool` stands for its binding.
    Roots,
    /// In a paired template's body: Params are the two templates' own and
    /// agree by index. Holds the served and the view template's parameter
    /// names, for messages.
    Members(&'a [String], &'a [String]),
}

struct Matcher<'a> {
    served: &'a TypeSpec,
    view: &'a CallView,
    /// View local id to the served local id it is paired with.
    paired: HashMap<&'a str, &'a str>,
    /// Pairs (served id, view id) whose templates are yet to be compared.
    queue: VecDeque<(&'a str, &'a str)>,
}

impl<'a> Matcher<'a> {
    fn served_text(&self, term: &Term, generic: &[String]) -> String {
        term_text(term, &self.served.declarations, generic)
    }

    fn view_text(&self, term: &Term, generic: &[String]) -> String {
        term_text(term, &self.view.declarations, generic)
    }

    /// Compares a served term with a view term; errors relative to the view
    /// term, at the innermost disagreement.
    fn terms(&mut self, served: &'a Term, view: &'a Term, mode: Mode<'a>, depth: usize) -> Result<()> {
        if depth >= MAX_TERM_DEPTH {
            return Err(Error::new(Rule::TooDeep, format!("terms nested deeper than {MAX_TERM_DEPTH}")));
        }
        let depth = depth + 1;
        let differ = |this: &Self| {
            let (served_generic, view_generic): (&[String], &[String]) = match mode {
                Mode::Roots => (&this.served.generic, &[]),
                Mode::Members(s, v) => (s, v),
            };
            mismatch(format!(
                "the view has {} where the served signature has {}",
                this.view_text(view, view_generic),
                this.served_text(served, served_generic)
            ))
        };
        match (served, view) {
            (Term::Param { index, .. }, _) if matches!(mode, Mode::Roots) => match self.view.bindings.get(*index) {
                Some((_, bound)) if bound == view => Ok(()),
                Some((name, bound)) => Err(mismatch(format!(
                    "the view has {} where the served signature has type parameter {name}, bound to {}",
                    self.view_text(view, &[]),
                    self.view_text(bound, &[])
                ))),
                None => Err(differ(self)),
            },
            (Term::Param { index: i, .. }, Term::Param { index: j, .. }) if i == j => Ok(()),
            (Term::Prim(a), Term::Prim(b)) if a == b => Ok(()),
            (Term::List(s), Term::List(v)) => self.terms(s, v, mode, depth).map_err(|e| e.under_key("List")),
            (Term::Set(s), Term::Set(v)) => self.terms(s, v, mode, depth).map_err(|e| e.under_key("Set")),
            (Term::Option(s), Term::Option(v)) => self.terms(s, v, mode, depth).map_err(|e| e.under_key("Option")),
            (Term::Task(s), Term::Task(v)) => self.terms(s, v, mode, depth).map_err(|e| e.under_key("Task")),
            (Term::Dict(sk, sv), Term::Dict(vk, vv)) => {
                self.terms(sk, vk, mode, depth).map_err(|e| e.under_index(0).under_key("Dict"))?;
                self.terms(sv, vv, mode, depth).map_err(|e| e.under_index(1).under_key("Dict"))
            }
            (Term::Tuple(s), Term::Tuple(v)) if s.len() == v.len() => {
                for (i, (s, v)) in s.iter().zip(v).enumerate() {
                    self.terms(s, v, mode, depth).map_err(|e| e.under_index(i).under_key("Tuple"))?;
                }
                Ok(())
            }
            (Term::Function { params: sp, result: sr }, Term::Function { params: vp, result: vr })
                if sp.len() == vp.len() =>
            {
                for (i, (s, v)) in sp.iter().zip(vp).enumerate() {
                    self.terms(s, v, mode, depth)
                        .map_err(|e| e.under_index(i).under_key("params").under_key("Function"))?;
                }
                self.terms(sr, vr, mode, depth).map_err(|e| e.under_key("result").under_key("Function"))
            }
            (Term::Named { declaration: d, args: sa }, Term::Named { declaration: e, args: va }) => {
                self.pair(d, e)?;
                if sa.len() != va.len() {
                    return Err(differ(self));
                }
                for (i, (s, v)) in sa.iter().zip(va).enumerate() {
                    self.terms(s, v, mode, depth).map_err(|e| e.under_index(i).under_key("args").under_key("Named"))?;
                }
                Ok(())
            }
            _ => Err(differ(self)),
        }
    }

    /// Pairs served template `served_id` with view template `view_id`: their
    /// identities must agree (without versions). New pairs are queued for a
    /// comparison of their templates.
    fn pair(&mut self, served_id: &'a str, view_id: &'a str) -> Result<()> {
        let (Some(served), Some(view)) = (self.served.declarations.get(served_id), self.view.declarations.get(view_id))
        else {
            return Err(mismatch(format!(
                "declaration {} (served) or {} (view) does not resolve",
                quote(served_id),
                quote(view_id)
            )));
        };
        if identity_without_version(&served.identity) != identity_without_version(&view.identity) {
            return Err(mismatch(format!(
                "the view names {} where the served signature names {}",
                view.identity, served.identity
            )));
        }
        match self.paired.get(view_id) {
            Some(&already) if already == served_id => Ok(()),
            Some(&already) => Err(mismatch(format!(
                "view declaration {} stands for two served declarations, {} and {}",
                quote(view_id),
                quote(already),
                quote(served_id)
            ))),
            None => {
                self.paired.insert(view_id, served_id);
                self.queue.push_back((served_id, view_id));
                Ok(())
            }
        }
    }

    /// Compares every queued pair of templates; errors at the view template.
    fn drain(&mut self) -> Result<()> {
        while let Some((served_id, view_id)) = self.queue.pop_front() {
            self.templates(served_id, view_id).map_err(|e| e.under_path(&declaration_path(view_id)))?;
        }
        Ok(())
    }

    /// Two templates with one identity; errors relative to the view template.
    fn templates(&mut self, served_id: &'a str, view_id: &'a str) -> Result<()> {
        let (Some(s), Some(v)) = (self.served.declarations.get(served_id), self.view.declarations.get(view_id)) else {
            return Ok(()); // pair() checked both resolve
        };
        let differ = |what: &str, served: String, view: String| {
            mismatch(format!("{} {what}: the view has {view}, the served declaration has {served}", s.identity))
        };
        if s.lexical_ordinal != v.lexical_ordinal {
            let e = differ("lexical_ordinal", s.lexical_ordinal.to_string(), v.lexical_ordinal.to_string());
            return Err(e.under_key("lexical_ordinal"));
        }
        if s.generic.len() != v.generic.len() {
            let e = differ("generic arity", s.generic.len().to_string(), v.generic.len().to_string());
            return Err(e.under_key("generic"));
        }
        if s.opaque != v.opaque {
            return Err(differ("opaque", s.opaque.to_string(), v.opaque.to_string()).under_key("opaque"));
        }
        match (&s.body, &v.body) {
            (Body::Record { fields: sf }, Body::Record { fields: vf }) => {
                self.fields(s, v, sf, vf).map_err(|e| e.under_key("fields"))
            }
            (Body::Enum { constructors: sc }, Body::Enum { constructors: vc }) => {
                if sc.len() != vc.len() {
                    let e = differ("constructor count", sc.len().to_string(), vc.len().to_string());
                    return Err(e.under_key("constructors"));
                }
                for (i, (sc, vc)) in sc.iter().zip(vc).enumerate() {
                    self.constructor(s, v, sc, vc).map_err(|e| e.under_index(i).under_key("constructors"))?;
                }
                Ok(())
            }
            (Body::Host, Body::Host) | (Body::Nondata, Body::Nondata) => Ok(()),
            (sb, vb) => Err(differ("kind", sb.kind().to_owned(), vb.kind().to_owned()).under_key("kind")),
        }
    }

    /// Fields in order, by name and type; errors relative to the array.
    fn fields(
        &mut self,
        template: &'a Template,
        view_template: &'a Template,
        served: &'a [Field],
        view: &'a [Field],
    ) -> Result<()> {
        if served.len() != view.len() {
            return Err(mismatch(format!(
                "{}: the view has {} fields here, the served declaration {}",
                template.identity,
                view.len(),
                served.len()
            )));
        }
        for (i, (s, v)) in served.iter().zip(view).enumerate() {
            if s.name != v.name {
                return Err(mismatch(format!(
                    "{}: field {i} is {} in the view, {} in the served declaration",
                    template.identity,
                    quote(&v.name),
                    quote(&s.name)
                ))
                .under_key("name")
                .under_index(i));
            }
            self.terms(&s.ty, &v.ty, Mode::Members(&template.generic, &view_template.generic), 0)
                .map_err(|e| e.under_key("type").under_index(i))?;
        }
        Ok(())
    }

    /// One constructor; errors relative to it.
    fn constructor(
        &mut self,
        template: &'a Template,
        view_template: &'a Template,
        served: &'a Constructor,
        view: &'a Constructor,
    ) -> Result<()> {
        if served.name != view.name {
            return Err(mismatch(format!(
                "{}: constructor {} in the view, {} in the served declaration",
                template.identity,
                quote(&view.name),
                quote(&served.name)
            ))
            .under_key("name"));
        }
        let shape = |p: &Option<Payload>| match p {
            None => "no payload".to_owned(),
            Some(Payload::Positional(parts)) => format!("{} positional parts", parts.len()),
            Some(Payload::Named(fields)) => format!("{} named parts", fields.len()),
        };
        match (&served.payload, &view.payload) {
            (None, None) => Ok(()),
            (Some(Payload::Positional(sp)), Some(Payload::Positional(vp))) if sp.len() == vp.len() => {
                for (j, (s, v)) in sp.iter().zip(vp).enumerate() {
                    self.terms(s, v, Mode::Members(&template.generic, &view_template.generic), 0)
                        .map_err(|e| e.under_index(j).under_key("positional").under_key("payload"))?;
                }
                Ok(())
            }
            (Some(Payload::Named(sf)), Some(Payload::Named(vf))) => {
                self.fields(template, view_template, sf, vf).map_err(|e| e.under_key("named").under_key("payload"))
            }
            (s, v) => Err(mismatch(format!(
                "{}: constructor {} has {} in the view, {} in the served declaration",
                template.identity,
                quote(&view.name),
                shape(v),
                shape(s)
            ))
            .under_key("payload")),
        }
    }
}
