//! A codec of one concrete type of a call: how a generic Tool's author turns
//! type parameter values (JSON) into typed values and back, and compares them
//! with the type's own equality and order (`decisions.md` section 3), never
//! JSON's.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::codec::{resolve, FromValue, GenericValue, IntoValue};
use flow_core::check::check;
use flow_core::decode::from_json;
use flow_core::error::Result;
use flow_core::plan::{NodeId, Plan};
use flow_core::types::{Declarations, Term};
use flow_core::value::Value;
use flow_protocol::CallTypes;

#[derive(Debug, Clone)]
enum Source {
    /// A root of the call's compiled types.
    Call(Arc<CallTypes>),
    /// A type compiled on its own (a type parameter's binding).
    Own(Arc<Plan>),
}

/// Decoding, encoding, equality and order at one concrete type.
#[derive(Debug, Clone)]
pub struct Codec {
    source: Source,
    node: NodeId,
}

impl Codec {
    pub(crate) fn of(types: Arc<CallTypes>, node: NodeId) -> Codec {
        Codec { source: Source::Call(types), node }
    }

    pub(crate) fn compile(declarations: &Declarations, term: &Term) -> Result<Codec> {
        let (plan, node) = Plan::compile(declarations, term)?;
        Ok(Codec { source: Source::Own(Arc::new(plan)), node })
    }

    fn plan(&self) -> &Plan {
        match &self.source {
            Source::Call(types) => &types.plan,
            Source::Own(plan) => plan,
        }
    }

    /// The value a JSON stands for at this type; refused when it does not
    /// decode (with its path and rule).
    pub fn value(&self, json: &GenericValue) -> Result<Value> {
        from_json(json.as_json().clone(), self.plan(), self.node)
    }

    /// A typed Rust value, when the author knows the concrete type
    /// (`codec.decode::<BigInt>(&value)` for `T = Int`).
    pub fn decode<T: FromValue>(&self, json: &GenericValue) -> Result<T> {
        T::from_value(self.value(json)?)
    }

    /// The JSON of a typed Rust value at this type (checked: a value of
    /// another type is refused, never written).
    pub fn encode<T: IntoValue>(&self, value: T) -> Result<GenericValue> {
        let value = resolve(value.into_value(), self.plan(), self.node)?;
        check(&value, self.plan(), self.node)?;
        GenericValue::from_value(value)
    }

    /// The type's order between two of its values.
    pub fn compare(&self, a: &GenericValue, b: &GenericValue) -> Result<Ordering> {
        Ok(self.value(a)?.flow_cmp(&self.value(b)?))
    }

    /// The type's equality: `2024-01-01T01:00:00+01:00` and
    /// `2024-01-01T00:00:00Z` are one Instant, though not one JSON.
    pub fn equal(&self, a: &GenericValue, b: &GenericValue) -> Result<bool> {
        Ok(self.compare(a, b)? == Ordering::Equal)
    }

    /// Sorts values in the type's order (stable; equal values stay).
    pub fn sort(&self, values: &mut [GenericValue]) -> Result<()> {
        let mut keyed = values.iter().map(|v| Ok((self.value(v)?, v.clone()))).collect::<Result<Vec<_>>>()?;
        keyed.sort_by(|a, b| a.0.flow_cmp(&b.0));
        for (slot, (_, value)) in values.iter_mut().zip(keyed) {
            *slot = value;
        }
        Ok(())
    }
}
