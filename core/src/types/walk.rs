//! Where terms sit. The checks that need to name a place away from the
//! unwinding of one recursive call (the expanding-recursion rule, which finds
//! its culprit only after looking at the whole graph) collect terms here with
//! their JSON paths. The path segments mirror the JSON exactly
//! (`.fields[1].type.Named.args[0]`), as `tests/vectors/README.md` requires.

use super::model::*;
use crate::error::{Path, Seg};

/// The terms a template's body holds directly, each with its path relative
/// to the template, in declaration order.
pub(crate) fn template_slots(template: &Template) -> Vec<(Path, &Term)> {
    let mut slots = Vec::new();
    match &template.body {
        Body::Record { fields } => {
            for (i, field) in fields.iter().enumerate() {
                slots.push((Path::root().key("fields").index(i).key("type"), &field.ty));
            }
        }
        Body::Enum { constructors } => {
            for (i, constructor) in constructors.iter().enumerate() {
                let at = Path::root().key("constructors").index(i).key("payload");
                match &constructor.payload {
                    None => {}
                    Some(Payload::Positional(parts)) => {
                        for (j, part) in parts.iter().enumerate() {
                            slots.push((at.clone().key("positional").index(j), part));
                        }
                    }
                    Some(Payload::Named(fields)) => {
                        for (j, field) in fields.iter().enumerate() {
                            slots.push((at.clone().key("named").index(j).key("type"), &field.ty));
                        }
                    }
                }
            }
        }
        Body::Host | Body::Nondata => {}
    }
    slots
}

/// Every term a template's body holds, nested ones included.
pub(crate) fn template_terms(template: &Template, f: &mut impl FnMut(&Term)) {
    for (_, term) in template_slots(template) {
        term.walk(f);
    }
}

/// Calls `f` on `term` and every term inside it with its path relative to
/// `term` (`path` is the path so far and is restored on return).
pub(crate) fn walk_with_path<'a>(term: &'a Term, path: &mut Vec<Seg>, f: &mut impl FnMut(&'a Term, &[Seg])) {
    f(term, path);
    let mut inner = |path: &mut Vec<Seg>, segs: &[Seg], t: &'a Term| {
        path.extend_from_slice(segs);
        walk_with_path(t, path, f);
        path.truncate(path.len() - segs.len());
    };
    let key = |k: &str| Seg::Key(k.to_owned());
    match term {
        Term::Prim(_) | Term::Param { .. } => {}
        Term::List(t) => inner(path, &[key("List")], t),
        Term::Set(t) => inner(path, &[key("Set")], t),
        Term::Option(t) => inner(path, &[key("Option")], t),
        Term::Task(t) => inner(path, &[key("Task")], t),
        Term::Dict(k, v) => {
            inner(path, &[key("Dict"), Seg::Index(0)], k);
            inner(path, &[key("Dict"), Seg::Index(1)], v);
        }
        Term::Tuple(items) => {
            for (i, t) in items.iter().enumerate() {
                inner(path, &[key("Tuple"), Seg::Index(i)], t);
            }
        }
        Term::Function { params, result } => {
            for (i, t) in params.iter().enumerate() {
                inner(path, &[key("Function"), key("params"), Seg::Index(i)], t);
            }
            inner(path, &[key("Function"), key("result")], result);
        }
        Term::Named { args, .. } => {
            for (i, t) in args.iter().enumerate() {
                inner(path, &[key("Named"), key("args"), Seg::Index(i)], t);
            }
        }
    }
}
