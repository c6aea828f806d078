//! JavaScript values to Flow values, directed by a compiled type: how a
//! handler's result, a declared error, or a value given to `Codec.encode`
//! becomes a [`Value`]. Nothing is coerced: a `number` where a `bigint` is
//! declared, `null` for an absent Option, an unknown record member or a
//! string with a lone surrogate are refused, naming the path and the rule.
//!
//! The mapping is the one [`crate::to_js`] produces, read the other way; sets
//! and maps may be the built-in ones or the toolkit's, and are sorted here by
//! Flow's order, refusing two equal members.

use std::collections::HashMap;
use std::sync::Arc;

use flow_core::error::{Error, Rule};
use flow_core::json::{Json, Object};
use flow_core::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use flow_core::time::{Duration, Instant};
use flow_core::types::Prim;
use flow_core::value::{EnumPayload, EnumValue, Value};
use flow_core::{Limits, Number};
use num_bigint::Sign;
use num_traits::ToPrimitive;

use crate::classes::Classes;
use crate::js::{Js, Kind, Raw};

/// Why a conversion stopped: a refusal (with its path), or a failing
/// Node-API call (a pending exception, say), which is passed on as is.
#[derive(Debug)]
pub enum Fault {
    Flow(Error),
    Napi(napi::Error),
}

impl From<napi::Error> for Fault {
    fn from(e: napi::Error) -> Fault {
        Fault::Napi(e)
    }
}

impl Fault {
    pub fn under_key(self, key: &str) -> Fault {
        match self {
            Fault::Flow(e) => Fault::Flow(e.under_key(key)),
            other => other,
        }
    }

    pub fn under_index(self, index: usize) -> Fault {
        match self {
            Fault::Flow(e) => Fault::Flow(e.under_index(index)),
            other => other,
        }
    }

    /// Throws it into JavaScript: a refusal as a `FlowError`.
    pub fn throw(self, js: Js) -> napi::Error {
        match self {
            Fault::Flow(e) => crate::classes::throw_flow(js, &e),
            Fault::Napi(e) => e,
        }
    }
}

pub type R<T> = std::result::Result<T, Fault>;

fn refuse<T>(rule: Rule, message: impl Into<String>) -> R<T> {
    Err(Fault::Flow(Error::new(rule, message)))
}

pub struct FromJs<'a> {
    pub js: Js,
    pub c: Classes,
    pub plan: &'a Plan,
    limits: Limits,
    depth: usize,
    names: HashMap<*const u8, Raw>,
    case: Raw,
    value: Raw,
}

impl<'a> FromJs<'a> {
    pub fn new(js: Js, c: Classes, plan: &'a Plan, limits: Limits) -> napi::Result<FromJs<'a>> {
        Ok(FromJs {
            js,
            c,
            plan,
            limits,
            depth: 0,
            names: HashMap::new(),
            case: js.string("case")?,
            value: js.string("value")?,
        })
    }

    /// A field name as a JS string, made once per conversion.
    fn name(&mut self, name: &Arc<str>) -> R<Raw> {
        let at = Arc::as_ptr(name) as *const u8;
        if let Some(&raw) = self.names.get(&at) {
            return Ok(raw);
        }
        let raw = self.js.string(name)?;
        self.names.insert(at, raw);
        Ok(raw)
    }

    /// What a JS value is, for messages.
    pub fn describe(&self, v: Raw) -> R<String> {
        let js = self.js;
        let kind = js.kind(v)?;
        Ok(match kind {
            Kind::Object => {
                let c = &self.c;
                if js.is_array(v)? {
                    "an array".to_owned()
                } else if js.instance_of(v, c.decimal)? {
                    "a Decimal".to_owned()
                } else if js.instance_of(v, c.instant)? {
                    "an Instant".to_owned()
                } else if js.instance_of(v, c.duration)? {
                    "a Duration".to_owned()
                } else if js.instance_of(v, c.some)? {
                    "a Some".to_owned()
                } else if js.instance_of(v, c.flow_set)? || js.instance_of(v, c.set)? {
                    "a Set".to_owned()
                } else if js.instance_of(v, c.flow_map)? || js.instance_of(v, c.map)? {
                    "a Map".to_owned()
                } else if js.uint8_array(v)?.is_some() {
                    "a Uint8Array".to_owned()
                } else {
                    "an object".to_owned()
                }
            }
            Kind::Number => {
                let n = js.get_f64(v)?;
                let exact = if n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15 {
                    format!("a bigint ({n}n)")
                } else {
                    format!("Decimal.parse(\"{n}\")")
                };
                format!("the number {n} (a JavaScript number is a binary float, not exact: write {exact})")
            }
            other => other.name().to_owned(),
        })
    }

    fn expected<T>(&self, what: &str, v: Raw) -> R<T> {
        let found = self.describe(v)?;
        refuse(Rule::Encode, format!("expected {what}, found {found}"))
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return refuse(
                Rule::TooDeep,
                format!(
                    "nested deeper than {} levels (a cycle, or a value past the depth limit)",
                    self.limits.max_depth
                ),
            );
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The Flow value of `v` at node `node`.
    pub fn value(&mut self, v: Raw, node: NodeId) -> R<Value> {
        let plan = self.plan;
        match plan.node(node) {
            Node::Prim(p) => self.prim(v, *p),
            Node::List(item) => {
                self.enter()?;
                let items = self.array(v, *item)?;
                self.leave();
                Ok(Value::List(items))
            }
            Node::Tuple(parts) => {
                self.enter()?;
                let items = self.tuple(v, parts)?;
                self.leave();
                Ok(Value::Tuple(items))
            }
            Node::Set(item) => {
                self.enter()?;
                let items = self.set(v, *item)?;
                self.leave();
                Ok(Value::Set(items))
            }
            Node::Option(item) => self.option(v, *item),
            Node::TextDict(item) => {
                self.enter()?;
                let entries = self.text_dict(v, *item)?;
                self.leave();
                Ok(Value::TextDict(entries))
            }
            Node::Dict(key, item) => {
                self.enter()?;
                let entries = self.dict(v, *key, *item)?;
                self.leave();
                Ok(Value::Dict(entries))
            }
            Node::Record(record) => {
                self.enter()?;
                if !self.is_plain_object(v)? {
                    return self.expected(&format!("a {} record (an object)", short(&record.identity)), v);
                }
                let fields = self.fields(v, &record.fields, &record.identity)?;
                self.leave();
                Ok(Value::Record(fields))
            }
            Node::Enum(e) => {
                self.enter()?;
                let value = self.enumeration(v, e)?;
                self.leave();
                Ok(value)
            }
            Node::Host(identity) => {
                if self.js.kind(v)? == Kind::Object && self.js.instance_of(v, self.c.host_token)? {
                    let text = self.js.get_named(v, "canonical")?;
                    let text = self.js.get_string(text)?;
                    let json = flow_core::json::parse_str(&text, &self.limits).map_err(Fault::Flow)?;
                    Ok(Value::HostToken(json))
                } else {
                    self.expected(&format!("a HostToken ({})", short(identity)), v)
                }
            }
            Node::Unservable(why) => refuse(Rule::NotServable, format!("no value crosses here: {why}")),
        }
    }

    fn is_plain_object(&self, v: Raw) -> R<bool> {
        Ok(self.js.kind(v)? == Kind::Object && !self.js.is_array(v)?)
    }

    fn prim(&mut self, v: Raw, prim: Prim) -> R<Value> {
        let js = self.js;
        let kind = js.kind(v)?;
        match (prim, kind) {
            (Prim::Int, Kind::BigInt) => {
                let i = js.get_bigint(v)?;
                self.digits(&Number::from_bigint(&i))?;
                Ok(Value::Int(i))
            }
            (Prim::Int, _) => self.expected("an Int (a bigint)", v),
            (Prim::Decimal, Kind::Object) if js.instance_of(v, self.c.decimal)? => Ok(Value::Decimal(self.decimal(v)?)),
            (Prim::Decimal, _) => self.expected("a Decimal", v),
            (Prim::Text, Kind::String) => Ok(Value::Text(self.text(v)?)),
            (Prim::Text, _) => self.expected("a Text (a string)", v),
            (Prim::Bool, Kind::Boolean) => Ok(Value::Bool(js.get_bool(v)?)),
            (Prim::Bool, _) => self.expected("a Bool (a boolean)", v),
            (Prim::Unit, Kind::Null) => Ok(Value::Unit),
            (Prim::Unit, _) => self.expected("Unit (null)", v),
            (Prim::Bytes, Kind::Object) => match js.uint8_array(v)? {
                Some(bytes) => Ok(Value::Bytes(bytes)),
                None => self.expected("Bytes (a Uint8Array)", v),
            },
            (Prim::Bytes, _) => self.expected("Bytes (a Uint8Array)", v),
            (Prim::Instant, Kind::Object) if js.instance_of(v, self.c.instant)? => {
                let nanos = self.nanos(v, "epochNanoseconds")?;
                match Instant::from_nanos(nanos) {
                    Some(i) => Ok(Value::Instant(i)),
                    None => refuse(Rule::Range, "the Instant is outside the range of decisions.md 1"),
                }
            }
            (Prim::Instant, _) => self.expected("an Instant", v),
            (Prim::Duration, Kind::Object) if js.instance_of(v, self.c.duration)? => {
                let nanos = self.nanos(v, "nanoseconds")?;
                match Duration::from_nanos(nanos) {
                    Some(d) => Ok(Value::Duration(d)),
                    None => refuse(Rule::Range, "the Duration is outside the range of decisions.md 1"),
                }
            }
            (Prim::Duration, _) => self.expected("a Duration", v),
            (Prim::JsonValue, _) => Ok(Value::Json(self.json(v)?)),
            (Prim::Never, _) => refuse(Rule::Never, "Never has no values"),
        }
    }

    fn digits(&self, n: &Number) -> R<()> {
        n.check_digits(self.limits.max_digits).map_err(Fault::Flow)
    }

    fn nanos(&self, v: Raw, member: &str) -> R<i128> {
        let js = self.js;
        let nanos = js.get_named(v, member)?;
        if js.kind(nanos)? != Kind::BigInt {
            return self.expected(&format!("a bigint {member}"), nanos);
        }
        match js.get_bigint(nanos)?.to_i128() {
            Some(n) => Ok(n),
            None => refuse(Rule::Range, format!("{member} is out of range")),
        }
    }

    /// A string, refusing lone surrogates (which UTF-8 cannot hold; Node-API
    /// would silently replace them with U+FFFD).
    pub fn text(&self, v: Raw) -> R<String> {
        let s = self.js.get_string(v)?;
        if s.contains('\u{FFFD}') && self.js.has_lone_surrogate(v)? {
            return refuse(Rule::LoneSurrogate, "a string holding a lone surrogate is no Flow Text");
        }
        Ok(s)
    }

    /// A `Decimal`'s exact value.
    pub fn decimal(&self, v: Raw) -> R<Number> {
        let js = self.js;
        let coefficient = js.get_named(v, "coefficient")?;
        let exponent = js.get_named(v, "exponent")?;
        if js.kind(coefficient)? != Kind::BigInt || js.kind(exponent)? != Kind::Number {
            return refuse(
                Rule::Encode,
                "a Decimal whose coefficient is not a bigint or whose exponent is not a number",
            );
        }
        let exponent = js.get_f64(exponent)?;
        if exponent.fract() != 0.0 || exponent.abs() > 9_007_199_254_740_991.0 {
            return refuse(Rule::Encode, "a Decimal whose exponent is not a safe integer");
        }
        let coefficient = js.get_bigint(coefficient)?;
        let n = Number::from_parts(
            coefficient.sign() == Sign::Minus,
            &coefficient.magnitude().to_str_radix(10),
            exponent as i64,
        );
        self.digits(&n)?;
        Ok(n)
    }

    fn array(&mut self, v: Raw, item: NodeId) -> R<Vec<Value>> {
        let js = self.js;
        if js.kind(v)? != Kind::Object || !js.is_array(v)? {
            return self.expected("an array", v);
        }
        self.items(v, item)
    }

    fn items(&mut self, array: Raw, item: NodeId) -> R<Vec<Value>> {
        let js = self.js;
        let len = js.array_len(array)?;
        let mut values = Vec::with_capacity(len);
        for i in 0..len {
            let element = js.get_index(array, i)?;
            values.push(self.value(element, item).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    fn tuple(&mut self, v: Raw, parts: &[NodeId]) -> R<Vec<Value>> {
        let js = self.js;
        if js.kind(v)? != Kind::Object || !js.is_array(v)? {
            return self.expected(&format!("a tuple (an array of {})", parts.len()), v);
        }
        let len = js.array_len(v)?;
        if len != parts.len() {
            return refuse(Rule::TupleLength, format!("expected a tuple of {} items, found {len}", parts.len()));
        }
        let mut values = Vec::with_capacity(len);
        for (i, part) in parts.iter().enumerate() {
            let element = js.get_index(v, i)?;
            values.push(self.value(element, *part).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    /// The members of a Set (built-in or FlowSet) as an array.
    pub fn members(&mut self, v: Raw) -> R<Option<Raw>> {
        let js = self.js;
        if js.kind(v)? != Kind::Object {
            return Ok(None);
        }
        if js.instance_of(v, self.c.flow_set)? || js.instance_of(v, self.c.set)? {
            let undefined = js.undefined()?;
            return Ok(Some(js.call(self.c.set_to_array, undefined, &[v])?));
        }
        Ok(None)
    }

    fn set(&mut self, v: Raw, item: NodeId) -> R<Vec<Value>> {
        let Some(array) = self.members(v)? else { return self.expected("a Set (a ReadonlySet or FlowSet)", v) };
        let values = self.items(array, item)?;
        sorted_unique(values, |x| x, Rule::DuplicateElement, "two equal members in a Set")
    }

    /// The entries of a Map (built-in or FlowMap) as an array of pairs.
    pub fn entries(&mut self, v: Raw) -> R<Option<Raw>> {
        let js = self.js;
        if js.kind(v)? != Kind::Object {
            return Ok(None);
        }
        if js.instance_of(v, self.c.flow_map)? || js.instance_of(v, self.c.map)? {
            let undefined = js.undefined()?;
            return Ok(Some(js.call(self.c.map_to_array, undefined, &[v])?));
        }
        Ok(None)
    }

    fn text_dict(&mut self, v: Raw, item: NodeId) -> R<Vec<(String, Value)>> {
        let js = self.js;
        let Some(pairs) = self.entries(v)? else { return self.expected("a Dict (a ReadonlyMap)", v) };
        let len = js.array_len(pairs)?;
        let mut entries = Vec::with_capacity(len);
        for i in 0..len {
            let pair = js.get_index(pairs, i)?;
            let k = js.get_index(pair, 0)?;
            if js.kind(k)? != Kind::String {
                let found = self.describe(k)?;
                return refuse(Rule::Encode, format!("expected a string key, found {found}"))
                    .map_err(|e: Fault| e.under_index(i));
            }
            let key = self.text(k).map_err(|e| e.under_index(i))?;
            let val = js.get_index(pair, 1)?;
            let value = self.value(val, item).map_err(|e| e.under_key(&key))?;
            entries.push((key, value));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    fn dict(&mut self, v: Raw, key: NodeId, item: NodeId) -> R<Vec<(Value, Value)>> {
        let js = self.js;
        let Some(pairs) = self.entries(v)? else { return self.expected("a Dict (a ReadonlyMap or FlowMap)", v) };
        let len = js.array_len(pairs)?;
        let mut entries = Vec::with_capacity(len);
        for i in 0..len {
            let pair = js.get_index(pairs, i)?;
            let k = js.get_index(pair, 0)?;
            let k = self.value(k, key).map_err(|e| e.under_index(0).under_index(i))?;
            let val = js.get_index(pair, 1)?;
            let val = self.value(val, item).map_err(|e| e.under_index(1).under_index(i))?;
            entries.push((k, val));
        }
        sorted_unique(entries, |(k, _)| k, Rule::DuplicateKey, "two equal keys in a Dict")
    }

    /// `undefined` is None; anything else is Some. Where the payload is itself
    /// an Option, Some must be spelled `new Some(...)`.
    fn option(&mut self, v: Raw, item: NodeId) -> R<Value> {
        let js = self.js;
        if js.kind(v)? == Kind::Undefined {
            return Ok(Value::none());
        }
        Ok(Value::some(self.some_payload(v, item)?))
    }

    fn some_payload(&mut self, v: Raw, item: NodeId) -> R<Value> {
        let js = self.js;
        if matches!(self.plan.node(item), Node::Option(_)) {
            if js.kind(v)? == Kind::Object && js.instance_of(v, self.c.some)? {
                let inner = js.get_named(v, "value")?;
                return self.value(inner, item).map_err(|e| e.under_key("value"));
            }
            return self.expected("undefined (None) or a Some (the payload is itself an Option)", v);
        }
        self.value(v, item)
    }

    /// A record or named payload: every non-Option field present, Option
    /// fields absent (or `undefined`) for None, no other members.
    fn fields(&mut self, object: Raw, fields: &[FieldPlan], owner: &str) -> R<Vec<(Arc<str>, Value)>> {
        let js = self.js;
        let mut values = Vec::with_capacity(fields.len());
        let mut present = 0;
        for field in fields {
            let key = self.name(&field.name)?;
            let member = js.get(object, key)?;
            let undefined = js.kind(member)? == Kind::Undefined
                || self.inherited_from_object_prototype(object, key, &field.name, member)?;
            let value = match (undefined, field.optional) {
                (true, true) => Value::none(),
                (true, false) => {
                    return refuse(Rule::MissingField, format!("missing field {:?} of {}", &*field.name, short(owner)));
                }
                (false, optional) => {
                    present += 1;
                    if !js.has_own(object, key)? {
                        return refuse(
                            Rule::Encode,
                            format!("field {:?} is inherited, not the object's own", &*field.name),
                        );
                    }
                    let v = if optional {
                        self.some_payload(member, field.ty).map(Value::some)
                    } else {
                        self.value(member, field.ty)
                    };
                    v.map_err(|e| e.under_key(&field.name))?
                }
            };
            values.push((field.name.clone(), value));
        }
        // Members that are no field: refused, since encoding would drop them.
        let keys = js.own_keys(object)?;
        let count = js.array_len(keys)?;
        if count != present {
            for i in 0..count {
                let k = js.get_index(keys, i)?;
                let name = js.get_string(k)?;
                match fields.iter().find(|f| *f.name == *name) {
                    Some(_) => {}
                    None => {
                        let mut quoted = String::new();
                        flow_core::json::write_string(&mut quoted, &name);
                        return refuse(Rule::Encode, format!("{} has no field {quoted}", short(owner)));
                    }
                }
            }
        }
        Ok(values)
    }

    /// A field named like a member every object inherits (`toString`,
    /// `constructor`, `__proto__`) that the object does not have itself is
    /// absent: what a get finds is `Object.prototype`'s, not a field.
    fn inherited_from_object_prototype(&self, object: Raw, key: Raw, name: &str, member: Raw) -> R<bool> {
        let js = self.js;
        if js.has_own(object, key)? {
            return Ok(false);
        }
        // The `__proto__` accessor answers with the object's prototype,
        // never a field: a field of that name is always an own property.
        if name == "__proto__" {
            return Ok(true);
        }
        let inherited = js.get(js.object_prototype()?, key)?;
        Ok(js.strict_equals(member, inherited)?)
    }

    fn enumeration(&mut self, v: Raw, e: &flow_core::plan::Enum) -> R<Value> {
        let js = self.js;
        if !self.is_plain_object(v)? {
            return self.expected(&format!("a {} value (an object {{ case, value }})", short(&e.identity)), v);
        }
        let case = js.get(v, self.case)?;
        if js.kind(case)? != Kind::String {
            let found = self.describe(case)?;
            return refuse(Rule::Constructor, format!("expected the constructor's name as a string, found {found}"))
                .map_err(|e: Fault| e.under_key("case"));
        }
        let name = js.get_string(case)?;
        let Some(index) = e.constructors.iter().position(|c| *c.name == *name) else {
            let names: Vec<&str> = e.constructors.iter().map(|c| &*c.name).collect();
            return refuse(
                Rule::Constructor,
                format!("{name:?} is no constructor of {} (one of {names:?})", short(&e.identity)),
            )
            .map_err(|e: Fault| e.under_key("case"));
        };
        let ctor = &e.constructors[index];
        let payload = js.get(v, self.value)?;
        let has_payload = js.kind(payload)? != Kind::Undefined;
        // A payload of one Option part holds None as `value: undefined`, as
        // decoding writes it: undefined there is the payload, not its absence.
        let optional_part = matches!(&ctor.payload, PayloadPlan::Positional(parts) if parts.len() == 1 && matches!(self.plan.node(parts[0]), Node::Option(_)));
        let keys = js.own_keys(v)?;
        let allowed = 1 + usize::from(has_payload);
        if js.array_len(keys)? > allowed {
            for i in 0..js.array_len(keys)? {
                let k = js.get_string(js.get_index(keys, i)?)?;
                if k != "case" && k != "value" {
                    return refuse(Rule::Encode, format!("an enum value holds only case and value, not {k:?}"));
                }
            }
        }
        let under = |f: Fault| f.under_key("value");
        let payload = match &ctor.payload {
            PayloadPlan::None if has_payload => {
                return refuse(Rule::Constructor, format!("constructor {name} has no payload")).map_err(under);
            }
            PayloadPlan::None => EnumPayload::None,
            _ if !has_payload && !optional_part => {
                return refuse(Rule::Constructor, format!("constructor {name} takes a payload in value"))
                    .map_err(under);
            }
            PayloadPlan::Positional(parts) if parts.len() == 1 => {
                EnumPayload::Positional(vec![self.value(payload, parts[0]).map_err(under)?])
            }
            PayloadPlan::Positional(parts) => EnumPayload::Positional(self.tuple(payload, parts).map_err(under)?),
            PayloadPlan::Named(fields) => {
                if !self.is_plain_object(payload)? {
                    return self.expected("an object of named parts", payload).map_err(under);
                }
                EnumPayload::Named(self.fields(payload, fields, &name).map_err(under)?)
            }
        };
        Ok(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload }))
    }

    /// json.Value: null, booleans, bigints and Decimals, strings, arrays and
    /// plain objects. A JS number is refused (it is not exact), and so is
    /// `undefined` anywhere (JSON has none; JSON.stringify would drop it).
    pub fn json(&mut self, v: Raw) -> R<Json> {
        let js = self.js;
        match js.kind(v)? {
            Kind::Null => Ok(Json::Null),
            Kind::Boolean => Ok(Json::Bool(js.get_bool(v)?)),
            Kind::BigInt => {
                let n = Number::from_bigint(&js.get_bigint(v)?);
                self.digits(&n)?;
                Ok(Json::Number(n))
            }
            Kind::String => Ok(Json::String(self.text(v)?)),
            Kind::Object if js.is_array(v)? => {
                self.enter()?;
                let len = js.array_len(v)?;
                let mut items = Vec::with_capacity(len);
                for i in 0..len {
                    let element = js.get_index(v, i)?;
                    items.push(self.json(element).map_err(|e| e.under_index(i))?);
                }
                self.leave();
                Ok(Json::Array(items))
            }
            Kind::Object if js.instance_of(v, self.c.decimal)? => Ok(Json::Number(self.decimal(v)?)),
            Kind::Object => {
                let found = self.describe(v)?;
                if found != "an object" {
                    return refuse(Rule::Encode, format!("expected JSON, found {found}"));
                }
                self.enter()?;
                let keys = js.own_keys(v)?;
                let len = js.array_len(keys)?;
                let mut members = Vec::with_capacity(len);
                for i in 0..len {
                    let k = js.get_index(keys, i)?;
                    let key = self.text(k)?;
                    let member = js.get(v, k)?;
                    members.push((key.clone(), self.json(member).map_err(|e| e.under_key(&key))?));
                }
                self.leave();
                // Own keys of one object are unique.
                Ok(Json::Object(Object::from_members(members).expect("own keys are unique")))
            }
            _ => self.expected("JSON (null, boolean, bigint, Decimal, string, array or object)", v),
        }
    }
}

/// The NAME of an identity, for messages.
fn short(identity: &str) -> &str {
    flow_core::types::identity_name(identity)
}

/// Sorts by Flow's order and refuses equal members, naming the later one in
/// the input (as decoding does).
fn sorted_unique<T>(items: Vec<T>, key: impl Fn(&T) -> &Value, rule: Rule, what: &str) -> R<Vec<T>> {
    let mut indexed: Vec<(usize, T)> = items.into_iter().enumerate().collect();
    indexed.sort_by(|a, b| key(&a.1).flow_cmp(key(&b.1)).then(a.0.cmp(&b.0)));
    if let Some(w) = indexed.windows(2).filter(|w| key(&w[0].1) == key(&w[1].1)).min_by_key(|w| w[1].0) {
        return Err(Fault::Flow(Error::new(rule, format!("{what} (also at index {})", w[0].0)).under_index(w[1].0)));
    }
    Ok(indexed.into_iter().map(|(_, item)| item).collect())
}
