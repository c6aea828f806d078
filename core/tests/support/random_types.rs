//! Random Flow types and values for property tests.
//!
//! Types: a few random declarations (records, enums with every payload form, a
//! recursive record, a generic record instantiated at random arguments) and a
//! random root term over them and every structural form. Values: built by
//! walking the compiled plan with a seeded generator, so every value is of its
//! type by construction.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use flow_core::number::Number;
use flow_core::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use flow_core::time::{Duration, Instant};
use flow_core::types::*;
use flow_core::value::{EnumPayload, EnumValue, Value};
use flow_core::Json;
use num_bigint::BigInt;

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const REPO: &str = "github.com/example/props@0.3.0/types.flow";

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

fn prim(rng: &mut Rng) -> Term {
    // Never and Unit are left to explicit cases: Never has no values.
    const PRIMS: [Prim; 8] =
        [Prim::Int, Prim::Decimal, Prim::Bool, Prim::Text, Prim::Bytes, Prim::Duration, Prim::Instant, Prim::JsonValue];
    Term::Prim(PRIMS[rng.below(PRIMS.len() as u64) as usize])
}

/// A random term of at most `depth` levels, using declarations `1..=decls`.
fn term(rng: &mut Rng, depth: u32, decls: usize) -> Term {
    if depth == 0 || rng.chance(30) {
        return if decls > 0 && rng.chance(30) { named(1 + rng.below(decls as u64) as usize, vec![]) } else { prim(rng) };
    }
    let d = depth - 1;
    match rng.below(8) {
        0 => Term::List(Box::new(term(rng, d, decls))),
        1 => Term::Set(Box::new(term(rng, d, decls))),
        2 => Term::Option(Box::new(term(rng, d, decls))),
        3 => Term::Dict(Box::new(Term::Prim(Prim::Text)), Box::new(term(rng, d, decls))),
        4 => Term::Dict(Box::new(term(rng, d, decls)), Box::new(term(rng, d, decls))),
        5 => Term::Tuple((0..2 + rng.below(2)).map(|_| term(rng, d, decls)).collect()),
        6 => Term::Prim(Prim::Unit),
        _ => prim(rng),
    }
}

/// Random declarations and a root term that uses them.
pub fn random_type(seed: u64) -> (Declarations, Term) {
    let mut rng = Rng::new(seed);
    let mut decls = BTreeMap::new();
    let count = 1 + rng.below(4) as usize;
    for id in 1..=count {
        // Members refer only to earlier declarations: recursion is added below.
        let body = if rng.chance(50) {
            let fields = (0..rng.below(4))
                .map(|i| Field { name: format!("f{i}"), ty: term(&mut rng, 2, id - 1), doc: Some(format!("field {i}")) })
                .collect();
            Body::Record { fields }
        } else {
            let constructors = (0..1 + rng.below(3))
                .map(|i| Constructor {
                    name: format!("C{i}"),
                    doc: None,
                    payload: match rng.below(4) {
                        0 => None,
                        1 => Some(Payload::Positional(vec![term(&mut rng, 2, id - 1)])),
                        2 => Some(Payload::Positional((0..2).map(|_| term(&mut rng, 1, id - 1)).collect())),
                        _ => Some(Payload::Named(
                            (0..rng.below(3))
                                .map(|j| Field { name: format!("p{j}"), ty: term(&mut rng, 2, id - 1), doc: None })
                                .collect(),
                        )),
                    },
                })
                .collect();
            Body::Enum { constructors }
        };
        decls.insert(id.to_string(), template(id, &format!("T{id}"), &[], body, Some("a random type")));
    }
    // A recursive record and a generic one, instantiated by the root.
    let tree = count + 1;
    decls.insert(
        tree.to_string(),
        template(
            tree,
            "Tree",
            &[],
            Body::Record {
                fields: vec![
                    Field { name: "label".into(), ty: term(&mut rng, 1, count), doc: None },
                    Field { name: "children".into(), ty: Term::List(Box::new(named(tree, vec![]))), doc: None },
                ],
            },
            None,
        ),
    );
    let boxed = count + 2;
    let param = Term::Param { owner: boxed.to_string(), index: 0 };
    decls.insert(
        boxed.to_string(),
        template(
            boxed,
            "Box",
            &["T"],
            Body::Record {
                fields: vec![
                    Field { name: "value".into(), ty: param.clone(), doc: None },
                    Field { name: "maybe".into(), ty: Term::Option(Box::new(param)), doc: None },
                ],
            },
            None,
        ),
    );
    let root = match rng.below(4) {
        0 => named(tree, vec![]),
        1 => named(boxed, vec![term(&mut rng, 2, count)]),
        _ => term(&mut rng, 3, count + 1),
    };
    (decls, root)
}

fn text(rng: &mut Rng) -> String {
    const PIECES: [&str; 10] = ["a", "Zürich", "\"", "\\", "\n", "\u{1}", "東京", "🌧", "", "\u{7f}"];
    (0..rng.below(4)).map(|_| PIECES[rng.below(PIECES.len() as u64) as usize]).collect()
}

fn number(rng: &mut Rng, whole: bool) -> Number {
    let digits: String = (0..1 + rng.below(30)).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
    let exponent = if whole { rng.below(5) as i64 } else { rng.below(30) as i64 - 20 };
    Number::from_parts(rng.chance(40), &digits, exponent)
}

fn json(rng: &mut Rng, depth: u32) -> Json {
    match if depth == 0 { rng.below(4) } else { rng.below(6) } {
        0 => Json::Null,
        1 => Json::Bool(rng.chance(50)),
        2 => Json::Number(number(rng, false)),
        3 => Json::String(text(rng)),
        4 => Json::Array((0..rng.below(3)).map(|_| json(rng, depth - 1)).collect()),
        _ => {
            let mut object = flow_core::json::Object::new();
            for _ in 0..rng.below(3) {
                object.insert(text(rng), json(rng, depth - 1));
            }
            Json::Object(object)
        }
    }
}

/// A random value of the plan's node `id`; `depth` bounds recursion.
pub fn random_value(plan: &Plan, id: NodeId, rng: &mut Rng, depth: u32) -> Value {
    let len = |rng: &mut Rng| if depth == 0 { 0 } else { rng.below(4) as usize };
    match plan.node(id) {
        Node::Prim(p) => match p {
            Prim::Int => Value::Int(number(rng, true).to_bigint().unwrap_or_else(|| BigInt::from(0))),
            Prim::Decimal => Value::Decimal(number(rng, false)),
            Prim::Bool => Value::Bool(rng.chance(50)),
            Prim::Text => Value::Text(text(rng)),
            Prim::Bytes => Value::Bytes((0..rng.below(6)).map(|_| rng.next() as u8).collect()),
            Prim::Unit => Value::Unit,
            Prim::Instant => {
                let span = Instant::MAX_NANOS as u128 * 2 + 1;
                let nanos = (((rng.next() as u128) << 64 | rng.next() as u128) % span) as i128 - Instant::MAX_NANOS;
                Value::Instant(Instant::from_nanos(nanos).unwrap())
            }
            Prim::Duration => {
                let span = Duration::MAX_NANOS as u128 * 2 + 1;
                let nanos = (((rng.next() as u128) << 64 | rng.next() as u128) % span) as i128 - Duration::MAX_NANOS;
                let nanos = if rng.chance(50) { nanos / 1_000_000_000 * 1_000_000_000 } else { nanos };
                Value::Duration(Duration::from_nanos(nanos).unwrap())
            }
            Prim::JsonValue => Value::Json(json(rng, depth.min(3))),
            Prim::Never => panic!("Never has no values"),
        },
        Node::List(item) => Value::List((0..len(rng)).map(|_| random_value(plan, *item, rng, depth.saturating_sub(1))).collect()),
        Node::Set(item) => {
            let mut items: Vec<Value> = (0..len(rng)).map(|_| random_value(plan, *item, rng, depth.saturating_sub(1))).collect();
            items.sort_by(|a, b| a.flow_cmp(b));
            items.dedup();
            Value::Set(items)
        }
        Node::Option(item) => {
            if rng.chance(30) {
                Value::none()
            } else {
                Value::some(random_value(plan, *item, rng, depth.saturating_sub(1)))
            }
        }
        Node::TextDict(value) => {
            let mut entries: Vec<(String, Value)> =
                (0..len(rng)).map(|_| (text(rng), random_value(plan, *value, rng, depth.saturating_sub(1)))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            Value::TextDict(entries)
        }
        Node::Dict(key, value) => {
            let mut entries: Vec<(Value, Value)> = (0..len(rng))
                .map(|_| {
                    (
                        random_value(plan, *key, rng, depth.saturating_sub(1)),
                        random_value(plan, *value, rng, depth.saturating_sub(1)),
                    )
                })
                .collect();
            entries.sort_by(|a, b| a.0.flow_cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            Value::Dict(entries)
        }
        Node::Tuple(parts) => Value::Tuple(parts.iter().map(|p| random_value(plan, *p, rng, depth.saturating_sub(1))).collect()),
        Node::Record(record) => Value::Record(fields(plan, &record.fields, rng, depth)),
        Node::Enum(e) => {
            let index = rng.below(e.constructors.len() as u64) as usize;
            let ctor = &e.constructors[index];
            let payload = match &ctor.payload {
                PayloadPlan::None => EnumPayload::None,
                PayloadPlan::Positional(parts) => {
                    EnumPayload::Positional(parts.iter().map(|p| random_value(plan, *p, rng, depth.saturating_sub(1))).collect())
                }
                PayloadPlan::Named(named) => EnumPayload::Named(fields(plan, named, rng, depth)),
            };
            Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload })
        }
        Node::Host(_) => Value::HostToken(json(rng, 2)),
        Node::Unservable(why) => panic!("random types are servable: {why}"),
    }
}

fn fields(plan: &Plan, fields: &[FieldPlan], rng: &mut Rng, depth: u32) -> Vec<(Arc<str>, Value)> {
    fields
        .iter()
        .map(|f| {
            let value = if f.optional {
                if rng.chance(40) {
                    Value::none()
                } else {
                    Value::some(random_value(plan, f.ty, rng, depth.saturating_sub(1)))
                }
            } else {
                random_value(plan, f.ty, rng, depth.saturating_sub(1))
            };
            (f.name.clone(), value)
        })
        .collect()
}
