//! Which types can cross the host boundary, decided on the type alone.
//!
//! Nothing that holds a function, a Task or a nondata type crosses
//! (`host-boundary.md`, "The value encoding"; `decisions.md` section 1), and
//! host tokens have no order, so neither does a Set whose element type holds
//! one anywhere inside, nor a Dict whose key type does (`decisions.md`
//! section 3). A type that cannot cross is refused whatever the value: `[]`
//! at `List<fn()->Unit>` and `None` at `Option<Task<Int>>` are refused as
//! surely as any other value would be, so that whether a call runs never
//! depends on which value happened to be sent.
//!
//! [`crossing`] is the one predicate: plans (and so decoding and encoding in
//! the core and in both bindings), schemas (and so fingerprints, `describe`
//! and the host's bindings) and the generators' shared front all ask it.
//!
//! The walk follows value positions only: List and Set items, Option
//! payloads, Dict keys and values, Tuple parts, record fields and enum
//! payloads, through declarations with their arguments substituted (and
//! through recursion, each instantiation once). An argument that the
//! declaration's body never uses in a value position is no value, so
//! `Phantom<fn()->Unit>` crosses (`host-boundary.md`, "Type descriptions": an
//! unused nominal argument is not a substituted value field). A type
//! parameter crosses here; what it is bound to is decided where it is bound
//! (a generic call's concrete view).

use std::collections::{HashMap, HashSet};

use super::model::{Body, Declarations, Payload, Prim, Term, ToolDecl};
use super::resolve_named;
use super::write::term_text;
use crate::error::{Error, Path, Result, Rule};

/// How many terms one decision may look at. Validated declarations reach
/// finitely many instantiations, but their terms can double in size at each
/// step of a chain (`A<T>` holding `B<(T,T)>`, ...); a type that large has
/// no schema that fits in a message either (see `schema::MAX_WORK`).
const MAX_WORK: usize = 1 << 22;

/// Whether values of `term` can cross: `Ok`, or a refusal (rule
/// [`Rule::CannotCross`], at `$`) naming the position inside the type that
/// cannot and why. `tool_generic` names a generic Tool's own type
/// parameters, for messages only.
pub fn crossing(term: &Term, declarations: &Declarations, tool_generic: &[String]) -> Result<()> {
    Walk::new(declarations, tool_generic).check(term)
}

/// Whether every parameter, the success and the error type of `tool` can
/// cross; a refusal is placed at the listing's member that holds the term
/// (`$.tools[INDEX].params[1].type`, `$.tools[INDEX].ok`), `index` being the
/// Tool's position in its listing. A Tool that cannot cross cannot be served
/// or generated.
pub fn tool_crossing(tool: &ToolDecl, index: usize, declarations: &Declarations) -> Result<()> {
    let at = Path::root().key("tools").index(index);
    let check = |term: &Term, path: Path, what: String| {
        crossing(term, declarations, &tool.generic)
            .map_err(|e| Error { message: format!("{}: {what}: {}", tool.tool, e.message), ..e.under_path(&path) })
    };
    for (i, param) in tool.params.iter().enumerate() {
        check(&param.ty, at.clone().key("params").index(i).key("type"), format!("parameter {}", param.name))?;
    }
    check(&tool.ok, at.clone().key("ok"), "the success type".to_owned())?;
    check(&tool.err, at.key("err"), "the error type".to_owned())
}

/// A template's term with the declaration's parameters replaced by `args`,
/// refusing a parameter index past them rather than panicking (the walk
/// may be asked about declarations no validation has seen).
fn substituted(term: &Term, declaration: &str, args: &[Term]) -> Result<Term> {
    let mut past = None;
    term.walk(&mut |t| match t {
        Term::Param { owner, index } if owner == declaration && *index >= args.len() => past = Some(*index),
        _ => {}
    });
    match past {
        Some(index) => Err(Error::new(
            Rule::ParamIndex,
            format!("declaration {declaration:?} has {} type parameters, so it has no parameter {index}", args.len()),
        )),
        None => Ok(term.substitute(declaration, args)),
    }
}

/// What to do about a type without encoding.
const DATA_THERE: &str = "Declare a data type in that position.";

fn no_encoding(what: &str) -> String {
    format!("is {what}, which has no encoding, and nothing that holds one crosses, whatever the value")
}

/// How many terms `term` holds, itself included.
fn size(term: &Term) -> usize {
    let mut count = 0usize;
    term.walk(&mut |_| count += 1);
    count
}

/// Where a term sits in its parent, for the message.
#[derive(Debug, Clone)]
enum Step {
    Root,
    Item,
    Some,
    Key,
    Value,
    Part(usize),
    /// Field `field` of the record that is the parent, or of its
    /// constructor `constructor`'s named payload.
    Field {
        constructor: Option<usize>,
        field: usize,
    },
    /// Part `part` of the positional payload of the parent's constructor
    /// `constructor`.
    Positional {
        constructor: usize,
        part: usize,
    },
}

/// One term looked at, with where it came from.
struct Seen {
    term: Term,
    parent: usize,
    step: Step,
}

struct Walk<'d> {
    declarations: &'d Declarations,
    tool_generic: &'d [String],
    /// Every term looked at, the root first: a refusal names the path to it.
    seen: Vec<Seen>,
    /// Named instantiations already queued (each is walked once, so
    /// recursion ends).
    named: HashSet<Term>,
    /// Whether a type holds a host token, by instantiation, once decided.
    holds_host: HashMap<Term, bool>,
    /// Units of work spent, and the most that may be (`MAX_WORK`).
    work: usize,
    budget: usize,
}

impl<'d> Walk<'d> {
    fn new(declarations: &'d Declarations, tool_generic: &'d [String]) -> Walk<'d> {
        Walk {
            declarations,
            tool_generic,
            seen: Vec::new(),
            named: HashSet::new(),
            holds_host: HashMap::new(),
            work: 0,
            budget: MAX_WORK,
        }
    }

    /// Spends `units` of work: one per term looked at, and a new
    /// instantiation's size when it is made.
    fn spend(&mut self, units: usize) -> Result<()> {
        self.work = self.work.saturating_add(units);
        if self.work > self.budget {
            return Err(Error::new(
                Rule::NotServable,
                format!("the type reaches more than {} terms, too large to be sent", self.budget),
            ));
        }
        Ok(())
    }

    fn text(&self, term: &Term) -> String {
        term_text(term, self.declarations, self.tool_generic)
    }

    fn check(mut self, root: &Term) -> Result<()> {
        self.seen.push(Seen { term: root.clone(), parent: 0, step: Step::Root });
        let mut next = 0;
        // Breadth first: the refusal names the shortest way to its culprit.
        while next < self.seen.len() {
            self.spend(1)?;
            let at = next;
            next += 1;
            let term = self.seen[at].term.clone();
            match &term {
                Term::Prim(_) | Term::Param { .. } => {}
                Term::List(item) => self.push(at, Step::Item, item)?,
                Term::Option(item) => self.push(at, Step::Some, item)?,
                Term::Set(item) => {
                    self.ordered(at, item, "elements")?;
                    self.push(at, Step::Item, item)?;
                }
                Term::Dict(key, value) => {
                    if **key != Term::Prim(Prim::Text) {
                        self.ordered(at, key, "keys")?;
                    }
                    self.push(at, Step::Key, key)?;
                    self.push(at, Step::Value, value)?;
                }
                Term::Tuple(parts) => {
                    for (i, part) in parts.iter().enumerate() {
                        self.push(at, Step::Part(i), part)?;
                    }
                }
                Term::Function { .. } => return Err(self.refuse(at, &no_encoding("a function"), DATA_THERE)),
                Term::Task(_) => return Err(self.refuse(at, &no_encoding("a Task"), DATA_THERE)),
                Term::Named { declaration, args } => {
                    let template = resolve_named(self.declarations, declaration, args.len())?;
                    let substitute = |t: &Term| substituted(t, declaration, args);
                    match &template.body {
                        Body::Nondata => return Err(self.refuse(at, &no_encoding("a nondata type"), DATA_THERE)),
                        Body::Host => {}
                        Body::Record { fields } => {
                            for (field, f) in fields.iter().enumerate() {
                                self.push(at, Step::Field { constructor: None, field }, &substitute(&f.ty)?)?;
                            }
                        }
                        Body::Enum { constructors } => {
                            for (constructor, c) in constructors.iter().enumerate() {
                                match &c.payload {
                                    None => {}
                                    Some(Payload::Positional(parts)) => {
                                        for (part, ty) in parts.iter().enumerate() {
                                            self.push(at, Step::Positional { constructor, part }, &substitute(ty)?)?;
                                        }
                                    }
                                    Some(Payload::Named(fields)) => {
                                        for (field, f) in fields.iter().enumerate() {
                                            let step = Step::Field { constructor: Some(constructor), field };
                                            self.push(at, step, &substitute(&f.ty)?)?;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Queues `term`, found at `step` inside the term `parent`; a Named
    /// instantiation only the first time.
    fn push(&mut self, parent: usize, step: Step, term: &Term) -> Result<()> {
        if matches!(term, Term::Named { .. }) {
            if self.named.contains(term) {
                return Ok(());
            }
            self.spend(size(term))?;
            self.named.insert(term.clone());
        }
        self.seen.push(Seen { term: term.clone(), parent, step });
        Ok(())
    }

    /// Set elements and Dict keys are ordered (`decisions.md` section 3): a
    /// host token, which has no order, may not be inside them.
    fn ordered(&mut self, at: usize, inner: &Term, what: &str) -> Result<()> {
        if let Some(token) = self.host_inside(inner)? {
            let (why, fix) = match what {
                "elements" => (
                    format!("has elements that hold a host token ({token}), which has no order, so no Set of them can be encoded"),
                    "Use a List there, or leave the token out of the element type.",
                ),
                _ => (
                    format!("has keys that hold a host token ({token}), which has no order, so no Dict keyed by them can be encoded"),
                    "Key the Dict by data, or use a List of pairs.",
                ),
            };
            return Err(self.refuse(at, &why, fix));
        }
        Ok(())
    }

    /// The name of a host token type that values of `term` can hold, if any.
    fn host_inside(&mut self, term: &Term) -> Result<Option<String>> {
        let mut stack = vec![term.clone()];
        let mut visited: HashSet<Term> = HashSet::new();
        while let Some(term) = stack.pop() {
            self.spend(1)?;
            match &term {
                Term::Prim(_) | Term::Param { .. } | Term::Function { .. } | Term::Task(_) => {}
                Term::List(t) | Term::Set(t) | Term::Option(t) => stack.push((**t).clone()),
                Term::Dict(k, v) => stack.extend([(**k).clone(), (**v).clone()]),
                Term::Tuple(parts) => stack.extend(parts.iter().cloned()),
                Term::Named { declaration, args } => {
                    if self.holds_host.get(&term) == Some(&false) || visited.contains(&term) {
                        continue;
                    }
                    self.spend(size(&term))?;
                    visited.insert(term.clone());
                    let template = resolve_named(self.declarations, declaration, args.len())?;
                    match &template.body {
                        Body::Host => return Ok(Some(self.text(&term))),
                        Body::Nondata => {}
                        Body::Record { fields } => {
                            for field in fields {
                                stack.push(substituted(&field.ty, declaration, args)?);
                            }
                        }
                        Body::Enum { constructors } => {
                            for constructor in constructors {
                                match &constructor.payload {
                                    None => {}
                                    Some(Payload::Positional(parts)) => {
                                        for part in parts {
                                            stack.push(substituted(part, declaration, args)?);
                                        }
                                    }
                                    Some(Payload::Named(fields)) => {
                                        for field in fields {
                                            stack.push(substituted(&field.ty, declaration, args)?);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Nothing this search reached holds a host token: remember it for
        // each instantiation, so that many Sets of one type cost one search.
        for term in visited {
            self.holds_host.insert(term, false);
        }
        Ok(None)
    }

    /// The refusal of the term `at`: the root's type text, the way from the
    /// root to the culprit, why, and what to do instead.
    fn refuse(&self, at: usize, why: &str, fix: &str) -> Error {
        let mut steps = Vec::new();
        let mut i = at;
        while i != 0 {
            steps.push(i);
            i = self.seen[i].parent;
        }
        let root = self.text(&self.seen[0].term);
        let culprit = self.text(&self.seen[at].term);
        let place = if steps.is_empty() {
            String::new()
        } else {
            let path: Vec<String> = steps.iter().rev().map(|&i| self.describe(i)).collect();
            format!(" at {},", path.join(", "))
        };
        Error::new(Rule::CannotCross, format!("{root} cannot cross:{place} {culprit} {why}. {fix}"))
    }

    fn describe(&self, i: usize) -> String {
        let parent = &self.seen[self.seen[i].parent].term;
        let text = || self.text(parent);
        // The template of a field's or payload part's parent (a Named term,
        // resolved once already).
        let body = || match parent {
            Term::Named { declaration, .. } => self.declarations.get(declaration).map(|t| &t.body),
            _ => None,
        };
        let constructor = |c: usize| match body() {
            Some(Body::Enum { constructors }) => constructors.get(c),
            _ => None,
        };
        match &self.seen[i].step {
            Step::Root => String::new(),
            Step::Item => format!("the items of {}", text()),
            Step::Some => format!("the payload of {}", text()),
            Step::Key => format!("the keys of {}", text()),
            Step::Value => format!("the values of {}", text()),
            Step::Part(part) => format!("part {part} of {}", text()),
            Step::Field { constructor: None, field } => {
                let name = match body() {
                    Some(Body::Record { fields }) => fields.get(*field).map_or("?", |f| f.name.as_str()),
                    _ => "?",
                };
                format!("field {name:?} of {}", text())
            }
            Step::Field { constructor: Some(c), field } => {
                let (ctor, name) = match constructor(*c) {
                    Some(ctor) => match &ctor.payload {
                        Some(Payload::Named(fields)) => {
                            (ctor.name.as_str(), fields.get(*field).map_or("?", |f| f.name.as_str()))
                        }
                        _ => (ctor.name.as_str(), "?"),
                    },
                    None => ("?", "?"),
                };
                format!("field {name:?} of constructor {ctor} of {}", text())
            }
            Step::Positional { constructor: c, part } => {
                let ctor = constructor(*c).map_or("?", |ctor| ctor.name.as_str());
                format!("part {part} of constructor {ctor} of {}", text())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Field, Template};

    /// `Double<T>` holding `Double<(T, T)>` (expanding recursion, which
    /// validation refuses): each instantiation twice the last. The decision
    /// stops at its work bound instead of growing without end.
    #[test]
    fn a_type_without_end_meets_the_work_bound() {
        let param = Term::Param { owner: "1".into(), index: 0 };
        let next = Term::Named { declaration: "1".into(), args: vec![Term::Tuple(vec![param.clone(), param])] };
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
        let walk = Walk { budget: 100_000, ..Walk::new(&declarations, &[]) };
        let error = walk.check(&root).unwrap_err();
        assert_eq!(error.rule, Rule::NotServable, "{error}");
        assert!(error.message.contains("more than 100000 terms"), "{}", error.message);
    }
}
