//! Random values of a compiled type, built by walking its plan with a seeded
//! generator, so every value is of its type by construction. Texts, numbers
//! and times lean to the edges: escapes, non-ASCII, long digit strings,
//! extreme exponents, the ends of the Instant and Duration ranges.

use std::sync::Arc;

use flow_core::number::Number;
use flow_core::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use flow_core::time::{Duration, Instant};
use flow_core::types::Prim;
use flow_core::value::{EnumPayload, EnumValue, Value};
use flow_core::Json;
use num_bigint::BigInt;

use crate::Rng;

/// Pieces of text: escapes JSON must write (`"`, `\`, controls), characters
/// it must not escape (DEL, U+2028), non-ASCII in two, three and four UTF-8
/// bytes, and text that looks like markup or code to some language.
const PIECES: [&str; 16] = [
    "a",
    "Zürich",
    "\"",
    "\\",
    "\n",
    "\u{1}",
    "東京",
    "🌧",
    "",
    "\u{7f}",
    "\u{2028}",
    "</script>",
    "${x}",
    "\u{feff}",
    "\t",
    "é",
];

pub fn text(rng: &mut Rng) -> String {
    (0..rng.below(5)).map(|_| rng.pick(&PIECES)).collect()
}

/// A number with up to 40 significant digits (sometimes several hundred),
/// whole or with an exponent anywhere from -30 to +10.
pub fn number(rng: &mut Rng, whole: bool) -> Number {
    let len = if rng.chance(3) { 100 + rng.below(400) } else { 1 + rng.below(40) };
    let digits: String = (0..len).map(|_| char::from(b'0' + rng.below(10) as u8)).collect();
    let exponent = if whole { rng.below(5) as i64 } else { rng.below(40) as i64 - 30 };
    Number::from_parts(rng.chance(40), &digits, exponent)
}

pub fn json(rng: &mut Rng, depth: u32) -> Json {
    match if depth == 0 { rng.below(4) } else { rng.below(6) } {
        0 => Json::Null,
        1 => Json::Bool(rng.chance(50)),
        2 => {
            let whole = rng.chance(50);
            Json::Number(number(rng, whole))
        }
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

/// Nanoseconds within `±max`: uniform, or at an edge (zero, ±1, the limits),
/// or whole seconds or milliseconds (the forms other libraries produce).
fn nanos(rng: &mut Rng, max: i128) -> i128 {
    match rng.below(8) {
        0 => rng.pick(&[0, 1, -1, max, -max, max - 1, -max + 1]),
        1 => nanos(rng, max) / 1_000_000_000 * 1_000_000_000,
        2 => nanos(rng, max) / 1_000_000 * 1_000_000,
        _ => {
            let span = max as u128 * 2 + 1;
            (((rng.next_u64() as u128) << 64 | rng.next_u64() as u128) % span) as i128 - max
        }
    }
}

/// A random value of the plan's node `id`; `depth` bounds recursion: at 0,
/// collections are empty, Options None and enums take their first constructor
/// (every recursive enum here has a first constructor that ends the recursion).
pub fn random_value(plan: &Plan, id: NodeId, rng: &mut Rng, depth: u32) -> Value {
    let len = |rng: &mut Rng, item: NodeId| if depth == 0 || never(plan, item) { 0 } else { rng.below(4) as usize };
    let deeper = depth.saturating_sub(1);
    match plan.node(id) {
        Node::Prim(p) => match p {
            Prim::Int => Value::Int(number(rng, true).to_bigint().unwrap_or_else(|| BigInt::from(0))),
            Prim::Decimal => Value::Decimal(number(rng, false)),
            Prim::Bool => Value::Bool(rng.chance(50)),
            Prim::Text => Value::Text(text(rng)),
            Prim::Bytes => Value::Bytes((0..rng.below(7)).map(|_| rng.next_u64() as u8).collect()),
            Prim::Unit => Value::Unit,
            Prim::Instant => Value::Instant(Instant::from_nanos(nanos(rng, Instant::MAX_NANOS)).unwrap()),
            Prim::Duration => Value::Duration(Duration::from_nanos(nanos(rng, Duration::MAX_NANOS)).unwrap()),
            Prim::JsonValue => Value::Json(json(rng, depth.min(3))),
            Prim::Never => panic!("Never has no values"),
        },
        Node::List(item) => Value::List((0..len(rng, *item)).map(|_| random_value(plan, *item, rng, deeper)).collect()),
        Node::Set(item) => {
            let mut items: Vec<Value> = (0..len(rng, *item)).map(|_| random_value(plan, *item, rng, deeper)).collect();
            items.sort_by(|a, b| a.flow_cmp(b));
            items.dedup();
            Value::Set(items)
        }
        Node::Option(item) => {
            if depth == 0 || never(plan, *item) || rng.chance(30) {
                Value::none()
            } else {
                Value::some(random_value(plan, *item, rng, deeper))
            }
        }
        Node::TextDict(value) => {
            let mut entries: Vec<(String, Value)> =
                (0..len(rng, *value)).map(|_| (text(rng), random_value(plan, *value, rng, deeper))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            Value::TextDict(entries)
        }
        Node::Dict(key, value) => {
            let n = if never(plan, *key) { 0 } else { len(rng, *value) };
            let mut entries: Vec<(Value, Value)> = (0..n)
                .map(|_| (random_value(plan, *key, rng, deeper), random_value(plan, *value, rng, deeper)))
                .collect();
            entries.sort_by(|a, b| a.0.flow_cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            Value::Dict(entries)
        }
        Node::Tuple(parts) => Value::Tuple(parts.iter().map(|p| random_value(plan, *p, rng, deeper)).collect()),
        Node::Record(record) => Value::Record(fields(plan, &record.fields, rng, depth)),
        Node::Enum(e) => {
            let index = if depth == 0 { 0 } else { rng.below(e.constructors.len() as u64) as usize };
            let ctor = &e.constructors[index];
            let payload = match &ctor.payload {
                PayloadPlan::None => EnumPayload::None,
                PayloadPlan::Positional(parts) => {
                    EnumPayload::Positional(parts.iter().map(|p| random_value(plan, *p, rng, deeper)).collect())
                }
                PayloadPlan::Named(named) => EnumPayload::Named(fields(plan, named, rng, depth)),
            };
            Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload })
        }
        Node::Host(_) => Value::HostToken(json(rng, 2)),
        Node::Unservable(why) => panic!("random types are servable: {why}"),
    }
}

fn never(plan: &Plan, id: NodeId) -> bool {
    matches!(plan.node(id), Node::Prim(Prim::Never))
}

fn fields(plan: &Plan, fields: &[FieldPlan], rng: &mut Rng, depth: u32) -> Vec<(Arc<str>, Value)> {
    fields
        .iter()
        .map(|f| {
            let value = if f.optional {
                if depth == 0 || never(plan, f.ty) || rng.chance(40) {
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
