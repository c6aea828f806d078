//! Random Flow types: a few random declarations (records and enums with every
//! payload form, field and constructor names that are keywords or special in
//! Python, TypeScript and Rust), fixed ones for the forms a random walk rarely
//! builds (a recursive record, a recursive enum, a host token, generic records
//! and enums, a generic recursive record), and a random root term over them
//! and every structural form.

use std::collections::BTreeMap;

use flow_core::types::*;

use crate::Rng;

const REPO: &str = "github.com/example/props@0.3.0/types.flow";

/// Field names, some harmless and some that each language treats specially:
/// keywords, JavaScript's prototype members, Python's dunders and the names
/// generated classes use themselves, case twins, non-identifiers.
pub const FIELD_NAMES: [&str; 24] = [
    "f0",
    "f1",
    "value",
    "class",
    "type",
    "self",
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "__init__",
    "__slots__",
    "_flow_index",
    "None",
    "async",
    "A",
    "a",
    "_",
    "x y",
    "Zürich",
    "0",
    "case",
    "then",
    "match",
];

/// Constructor names: what an enum's JSON holds as a key or a string.
pub const CONSTRUCTOR_NAMES: [&str; 12] =
    ["C0", "C1", "Some", "None", "Ok", "Err", "__proto__", "constructor", "Self", "value", "x y", "É"];

fn template(id: usize, name: &str, generic: &[&str], body: Body, doc: Option<&str>) -> Template {
    Template {
        name: name.to_owned(),
        identity: format!("{REPO}.{name}"),
        lexical_ordinal: id as u64,
        generic: generic.iter().map(|s| s.to_string()).collect(),
        opaque: false,
        doc: doc.map(str::to_owned),
        body,
    }
}

fn named(id: usize, args: Vec<Term>) -> Term {
    Term::Named { declaration: id.to_string(), args }
}

fn param(owner: usize, index: usize) -> Term {
    Term::Param { owner: owner.to_string(), index }
}

/// `count` distinct names from `pool`.
fn names(rng: &mut Rng, pool: &[&str], count: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    while out.len() < count.min(pool.len()) {
        let name = rng.pick(pool).to_string();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

fn prim(rng: &mut Rng) -> Term {
    // Never and Unit are left to explicit cases: Never has no values.
    const PRIMS: [Prim; 8] =
        [Prim::Int, Prim::Decimal, Prim::Bool, Prim::Text, Prim::Bytes, Prim::Duration, Prim::Instant, Prim::JsonValue];
    Term::Prim(rng.pick(&PRIMS))
}

/// Declarations a term may name without arguments: ids `1..=plain`, plus the
/// fixed ones (`Fixed`), whose generic ones get random arguments.
#[derive(Clone, Copy)]
struct Scope {
    plain: usize,
    fixed: Option<Fixed>,
    /// Inside a Set element or a Dict key: host tokens have no order
    /// (`decisions.md` 3), so no token may be reached from here.
    keyed: bool,
}

/// Ids of the fixed declarations, which follow the random ones.
#[derive(Clone, Copy)]
struct Fixed {
    tree: usize,
    expr: usize,
    token: usize,
    boxed: usize,
    either: usize,
    gtree: usize,
}

/// A random term of at most `depth` levels.
fn term(rng: &mut Rng, depth: u32, scope: Scope) -> Term {
    if depth == 0 || rng.chance(30) {
        if let Some(f) = scope.fixed.filter(|_| rng.chance(20)) {
            let d = depth.saturating_sub(1).min(1);
            return match rng.below(6) {
                0 => named(f.tree, vec![]),
                1 | 2 if scope.keyed => named(f.expr, vec![]),
                1 => named(f.expr, vec![]),
                2 => named(f.token, vec![]),
                3 => named(f.boxed, vec![term(rng, d, scope)]),
                4 => named(f.either, vec![term(rng, d, scope), term(rng, d, scope)]),
                _ => named(f.gtree, vec![term(rng, d, scope)]),
            };
        }
        return if scope.plain > 0 && rng.chance(30) {
            named(1 + rng.below(scope.plain as u64) as usize, vec![])
        } else {
            prim(rng)
        };
    }
    let d = depth - 1;
    let key = Scope { keyed: true, ..scope };
    match rng.below(11) {
        0 => Term::List(Box::new(term(rng, d, scope))),
        1 => Term::Set(Box::new(term(rng, d, key))),
        2 => Term::Option(Box::new(term(rng, d, scope))),
        // Option<Option<T>>, Option<Unit>, Option<json.Value>: the forms whose
        // None and Some need spelling out in every language.
        3 => Term::Option(Box::new(match rng.below(3) {
            0 => Term::Option(Box::new(term(rng, d, scope))),
            1 => Term::Prim(Prim::Unit),
            _ => Term::Prim(Prim::JsonValue),
        })),
        4 => Term::Dict(Box::new(Term::Prim(Prim::Text)), Box::new(term(rng, d, scope))),
        5 => Term::Dict(Box::new(term(rng, d, key)), Box::new(term(rng, d, scope))),
        6 => Term::Tuple((0..2 + rng.below(2)).map(|_| term(rng, d, scope)).collect()),
        7 => Term::Prim(Prim::Unit),
        // Never is only where it has values: an Option of it is always None, a
        // List or Set of it always empty.
        8 => match rng.below(3) {
            0 => Term::Option(Box::new(Term::Prim(Prim::Never))),
            1 => Term::List(Box::new(Term::Prim(Prim::Never))),
            _ => Term::Set(Box::new(Term::Prim(Prim::Never))),
        },
        _ => prim(rng),
    }
}

fn record(rng: &mut Rng, scope: Scope) -> Body {
    let count = rng.below(5) as usize;
    let fields = names(rng, &FIELD_NAMES, count)
        .into_iter()
        .enumerate()
        .map(|(i, name)| Field { name, ty: term(rng, 2, scope), doc: Some(format!("field {i}")) })
        .collect();
    Body::Record { fields }
}

fn enumeration(rng: &mut Rng, scope: Scope) -> Body {
    let count = 1 + rng.below(3) as usize;
    let constructors = names(rng, &CONSTRUCTOR_NAMES, count)
        .into_iter()
        .map(|name| Constructor {
            name,
            doc: None,
            payload: match rng.below(4) {
                0 => None,
                1 => Some(Payload::Positional(vec![term(rng, 2, scope)])),
                2 => Some(Payload::Positional((0..2).map(|_| term(rng, 1, scope)).collect())),
                _ => {
                    let count = rng.below(3) as usize;
                    Some(Payload::Named(
                        names(rng, &FIELD_NAMES, count)
                            .into_iter()
                            .map(|name| Field { name, ty: term(rng, 2, scope), doc: None })
                            .collect(),
                    ))
                }
            },
        })
        .collect();
    Body::Enum { constructors }
}

/// Random declarations and a root term that uses them. Every declaration is
/// present in every result; [`crate::listing`] makes them all reachable.
pub fn random_type(seed: u64) -> (Declarations, Term) {
    let mut rng = Rng::new(seed);
    let mut decls = BTreeMap::new();
    let count = 1 + rng.below(4) as usize;
    for id in 1..=count {
        // Members refer only to earlier declarations: recursion is in the
        // fixed ones below.
        let scope = Scope { plain: id - 1, fixed: None, keyed: false };
        let body = if rng.chance(50) { record(&mut rng, scope) } else { enumeration(&mut rng, scope) };
        decls.insert(id.to_string(), template(id, &format!("T{id}"), &[], body, Some("a random type")));
    }
    let f = Fixed {
        tree: count + 1,
        expr: count + 2,
        token: count + 3,
        boxed: count + 4,
        either: count + 5,
        gtree: count + 6,
    };
    let plain = Scope { plain: count, fixed: None, keyed: false };
    // Tree: recursion through a List.
    decls.insert(
        f.tree.to_string(),
        template(
            f.tree,
            "Tree",
            &[],
            Body::Record {
                fields: vec![
                    Field { name: "label".into(), ty: term(&mut rng, 1, plain), doc: None },
                    Field { name: "children".into(), ty: Term::List(Box::new(named(f.tree, vec![]))), doc: None },
                ],
            },
            None,
        ),
    );
    // Expr: recursion through positional and named payloads and an Option.
    decls.insert(
        f.expr.to_string(),
        template(
            f.expr,
            "Expr",
            &[],
            Body::Enum {
                constructors: vec![
                    Constructor {
                        name: "Lit".into(),
                        doc: None,
                        payload: Some(Payload::Positional(vec![term(&mut rng, 1, plain)])),
                    },
                    Constructor {
                        name: "Neg".into(),
                        doc: None,
                        payload: Some(Payload::Positional(vec![named(f.expr, vec![])])),
                    },
                    Constructor {
                        name: "Add".into(),
                        doc: None,
                        payload: Some(Payload::Positional(vec![named(f.expr, vec![]), named(f.expr, vec![])])),
                    },
                    Constructor {
                        name: "Let".into(),
                        doc: None,
                        payload: Some(Payload::Named(vec![
                            Field { name: "name".into(), ty: Term::Prim(Prim::Text), doc: None },
                            Field { name: "body".into(), ty: Term::Option(Box::new(named(f.expr, vec![]))), doc: None },
                        ])),
                    },
                    Constructor { name: "Zero".into(), doc: None, payload: None },
                ],
            },
            None,
        ),
    );
    decls.insert(f.token.to_string(), template(f.token, "Token", &[], Body::Host, Some("chosen by the host")));
    decls.insert(
        f.boxed.to_string(),
        template(
            f.boxed,
            "Box",
            &["T"],
            Body::Record {
                fields: vec![
                    Field { name: "value".into(), ty: param(f.boxed, 0), doc: None },
                    Field { name: "maybe".into(), ty: Term::Option(Box::new(param(f.boxed, 0))), doc: None },
                ],
            },
            None,
        ),
    );
    decls.insert(
        f.either.to_string(),
        template(
            f.either,
            "Either",
            &["A", "B"],
            Body::Enum {
                constructors: vec![
                    Constructor {
                        name: "Left".into(),
                        doc: None,
                        payload: Some(Payload::Positional(vec![param(f.either, 0)])),
                    },
                    Constructor {
                        name: "Right".into(),
                        doc: None,
                        payload: Some(Payload::Named(vec![
                            Field { name: "value".into(), ty: param(f.either, 1), doc: None },
                            Field { name: "also".into(), ty: Term::Option(Box::new(param(f.either, 0))), doc: None },
                        ])),
                    },
                    Constructor { name: "Neither".into(), doc: None, payload: None },
                ],
            },
            None,
        ),
    );
    // GTree<T>: recursion at the same arguments (which does not expand).
    decls.insert(
        f.gtree.to_string(),
        template(
            f.gtree,
            "GTree",
            &["T"],
            Body::Record {
                fields: vec![
                    Field { name: "item".into(), ty: param(f.gtree, 0), doc: None },
                    Field {
                        name: "kids".into(),
                        ty: Term::List(Box::new(named(f.gtree, vec![param(f.gtree, 0)]))),
                        doc: None,
                    },
                ],
            },
            None,
        ),
    );
    let scope = Scope { plain: count, fixed: Some(f), keyed: false };
    let root = match rng.below(5) {
        0 => named(f.tree, vec![]),
        1 => named(f.boxed, vec![term(&mut rng, 2, scope)]),
        2 => named(f.either, vec![term(&mut rng, 2, scope), term(&mut rng, 2, scope)]),
        _ => term(&mut rng, 3, scope),
    };
    (decls, root)
}
