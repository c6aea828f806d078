//! Checking that a value is of a compiled type before it is encoded: a Tool's
//! result or declared error that is not of its declared type is answered
//! Unknown (`host-boundary.md`, "Toolkits"), so it must be caught, never sent.
//! Refusals name the path inside the value and use `Rule::Encode`.

use crate::error::{Error, Result, Rule};
use crate::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use crate::types::Prim;
use crate::value::{EnumPayload, Value};

/// Whether `value` is a value of node `id`, including the invariants the
/// canonical text relies on (sets and dict keys ascending and unique).
pub fn check(value: &Value, plan: &Plan, id: NodeId) -> Result<()> {
    match (plan.node(id), value) {
        (Node::Prim(p), v) => prim(*p, v),
        (Node::List(item), Value::List(items)) => items_of(items, plan, *item),
        (Node::Set(item), Value::Set(items)) => {
            items_of(items, plan, *item)?;
            ascending(items.windows(2).map(|w| (&w[0], &w[1])), "Set elements")
        }
        (Node::Option(item), Value::Option(inner)) => match inner {
            None => Ok(()),
            Some(v) => check(v, plan, *item).map_err(|e| e.under_key("Some")),
        },
        (Node::TextDict(item), Value::TextDict(entries)) => {
            for (k, v) in entries {
                check(v, plan, *item).map_err(|e| e.under_key(k))?;
            }
            if entries.windows(2).any(|w| w[0].0 >= w[1].0) {
                return Err(Error::new(Rule::Encode, "Dict keys are not ascending and unique"));
            }
            Ok(())
        }
        (Node::Dict(key, item), Value::Dict(entries)) => {
            for (i, (k, v)) in entries.iter().enumerate() {
                check(k, plan, *key).map_err(|e| e.under_index(0).under_index(i))?;
                check(v, plan, *item).map_err(|e| e.under_index(1).under_index(i))?;
            }
            ascending(entries.windows(2).map(|w| (&w[0].0, &w[1].0)), "Dict keys")
        }
        (Node::Tuple(parts), Value::Tuple(items)) => {
            if parts.len() != items.len() {
                return Err(mismatch(&format!("a tuple of {} items", parts.len()), value));
            }
            for (i, (part, item)) in parts.iter().zip(items).enumerate() {
                check(item, plan, *part).map_err(|e| e.under_index(i))?;
            }
            Ok(())
        }
        (Node::Record(record), Value::Record(fields)) => fields_of(fields, &record.fields, plan),
        (Node::Enum(e), Value::Enum(v)) => {
            let Some(ctor) = e.constructors.get(v.index as usize).filter(|c| c.name == v.name) else {
                return Err(Error::new(
                    Rule::Encode,
                    format!("{} is not constructor {} of {}", v.name, v.index, e.identity),
                ));
            };
            let under = |err: Error| err.under_key(&v.name);
            match (&ctor.payload, &v.payload) {
                (PayloadPlan::None, EnumPayload::None) => Ok(()),
                (PayloadPlan::Positional(parts), EnumPayload::Positional(items)) if parts.len() == items.len() => {
                    for (i, (part, item)) in parts.iter().zip(items).enumerate() {
                        let err = |e: Error| if parts.len() == 1 { e } else { e.under_index(i) };
                        check(item, plan, *part).map_err(err).map_err(under)?;
                    }
                    Ok(())
                }
                (PayloadPlan::Named(plans), EnumPayload::Named(fields)) => {
                    fields_of(fields, plans, plan).map_err(under)
                }
                _ => Err(Error::new(Rule::Encode, format!("wrong payload for constructor {}", v.name))),
            }
        }
        (Node::Host(_), Value::HostToken(_)) => Ok(()),
        (Node::Unservable(why), _) => Err(Error::new(Rule::NotServable, format!("no value crosses here: {why}"))),
        (node, value) => Err(mismatch(node_name(node), value)),
    }
}

fn prim(p: Prim, value: &Value) -> Result<()> {
    let ok = matches!(
        (p, value),
        (Prim::Int, Value::Int(_))
            | (Prim::Decimal, Value::Decimal(_))
            | (Prim::Bool, Value::Bool(_))
            | (Prim::Text, Value::Text(_))
            | (Prim::Bytes, Value::Bytes(_))
            | (Prim::Unit, Value::Unit)
            | (Prim::Instant, Value::Instant(_))
            | (Prim::Duration, Value::Duration(_))
            | (Prim::JsonValue, Value::Json(_))
    );
    if ok {
        Ok(())
    } else if p == Prim::Never {
        Err(Error::new(Rule::Never, "Never has no values"))
    } else {
        Err(mismatch(p.name(), value))
    }
}

fn items_of(items: &[Value], plan: &Plan, item: NodeId) -> Result<()> {
    for (i, v) in items.iter().enumerate() {
        check(v, plan, item).map_err(|e| e.under_index(i))?;
    }
    Ok(())
}

fn ascending<'a>(mut pairs: impl Iterator<Item = (&'a Value, &'a Value)>, what: &str) -> Result<()> {
    if pairs.any(|(a, b)| a.flow_cmp(b) != std::cmp::Ordering::Less) {
        return Err(Error::new(Rule::Encode, format!("{what} are not ascending and unique")));
    }
    Ok(())
}

fn fields_of(fields: &[(std::sync::Arc<str>, Value)], plans: &[FieldPlan], plan: &Plan) -> Result<()> {
    if fields.len() != plans.len() || fields.iter().zip(plans).any(|((name, _), p)| *name != p.name) {
        let names: Vec<&str> = plans.iter().map(|p| &*p.name).collect();
        return Err(Error::new(Rule::Encode, format!("expected the fields {names:?} in declaration order")));
    }
    for ((name, value), field) in fields.iter().zip(plans) {
        let result = match (field.optional, value) {
            (true, Value::Option(None)) => Ok(()),
            (true, Value::Option(Some(inner))) => check(inner, plan, field.ty),
            (true, other) => Err(mismatch("an Option", other)),
            (false, v) => check(v, plan, field.ty),
        };
        result.map_err(|e| e.under_key(name))?;
    }
    Ok(())
}

fn node_name(node: &Node) -> &'static str {
    match node {
        Node::Prim(p) => p.name(),
        Node::List(_) => "a List",
        Node::Set(_) => "a Set",
        Node::Option(_) => "an Option",
        Node::TextDict(_) | Node::Dict(..) => "a Dict",
        Node::Tuple(_) => "a tuple",
        Node::Record(_) => "a record",
        Node::Enum(_) => "an enum",
        Node::Host(_) => "a host token",
        Node::Unservable(_) => "nothing",
    }
}

fn mismatch(expected: &str, found: &Value) -> Error {
    Error::new(Rule::Encode, format!("expected {expected}, found {}", found.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Declarations, Term};

    fn plan_of(term: Term) -> (Plan, NodeId) {
        Plan::compile(&Declarations::new(), &term).unwrap()
    }

    #[test]
    fn refuses_values_of_another_type_with_their_path() {
        let (plan, id) = plan_of(Term::List(Box::new(Term::Prim(Prim::Int))));
        let good = Value::List(vec![Value::Int(1.into())]);
        assert!(check(&good, &plan, id).is_ok());
        let bad = Value::List(vec![Value::Int(1.into()), Value::Text("2".into())]);
        let e = check(&bad, &plan, id).unwrap_err();
        assert_eq!((e.path.to_string().as_str(), e.rule), ("$[1]", Rule::Encode));
    }

    #[test]
    fn refuses_unsorted_sets() {
        let (plan, id) = plan_of(Term::Set(Box::new(Term::Prim(Prim::Int))));
        let sorted = Value::Set(vec![Value::Int(1.into()), Value::Int(2.into())]);
        assert!(check(&sorted, &plan, id).is_ok());
        let unsorted = Value::Set(vec![Value::Int(2.into()), Value::Int(1.into())]);
        assert_eq!(check(&unsorted, &plan, id).unwrap_err().rule, Rule::Encode);
        let repeated = Value::Set(vec![Value::Int(1.into()), Value::Int(1.into())]);
        assert_eq!(check(&repeated, &plan, id).unwrap_err().rule, Rule::Encode);
    }

    #[test]
    fn never_has_no_values() {
        let (plan, id) = plan_of(Term::Prim(Prim::Never));
        assert_eq!(check(&Value::Unit, &plan, id).unwrap_err().rule, Rule::Never);
    }
}
