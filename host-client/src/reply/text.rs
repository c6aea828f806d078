//! A reply's outcome decoded at its declared types straight from its text,
//! in one pass, without the JSON tree [`flow_core::decode::from_json`] consumes.
//!
//! Only the form canonical writers produce is read: no whitespace, strings
//! without escapes, object keys strictly ascending (so no duplicate), a
//! record's or a named payload's members all its fields, a Set's items and a
//! Dict's keys strictly ascending, nesting well inside the depth limit.
//! Anything else, every value that would be refused, and a few rare types
//! (host tokens), give `None`: the reader then takes the old path (the tree,
//! then [`flow_protocol::outcome::admit`]), which decides and words every
//! outcome as before. So a `Some` is always the old path's outcome.

use std::sync::Arc;

use flow_core::json::{Json, Object};
use flow_core::limits::Limits;
use flow_core::number::{scan_json_number, ScannedNumber};
use flow_core::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use flow_core::time::{Duration, Instant};
use flow_core::types::Prim;
use flow_core::value::{EnumPayload, EnumValue, Value};
use flow_protocol::outcome::{CallOutcome, ReplyTypes};

/// Levels above an `Ok` or `Failed` value in a reply line: the message,
/// `params`, `outcome`; and a margin, so that no value near the limit is
/// read here (the old path words that refusal).
const LEVELS_ABOVE: usize = 3 + 1;

/// The outcome of a reply whose `outcome` member's text is `outcome`, or
/// `None` when only the old path may judge it.
pub(super) fn admit_text(outcome: &[u8], types: ReplyTypes<'_>, limits: &Limits) -> Option<CallOutcome> {
    let (body, node, ok) = if let Some(rest) = outcome.strip_prefix(br#"{"Ok":"#) {
        (rest.strip_suffix(b"}")?, types.ok, true)
    } else if let Some(rest) = outcome.strip_prefix(br#"{"Failed":"#) {
        (rest.strip_suffix(b"}")?, types.err, false)
    } else {
        return None;
    };
    let mut reader = Reader {
        bytes: body,
        pos: 0,
        plan: types.plan,
        depth_left: limits.max_depth.checked_sub(LEVELS_ABOVE)?,
        max_digits: limits.max_digits,
    };
    let value = reader.value(node)?;
    if reader.pos != body.len() {
        return None;
    }
    Some(if ok { CallOutcome::Ok(value) } else { CallOutcome::Failed(value) })
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    plan: &'a Plan,
    /// Containers that may still open.
    depth_left: usize,
    max_digits: u64,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    fn literal(&mut self, text: &[u8]) -> Option<()> {
        self.bytes[self.pos..].starts_with(text).then(|| self.pos += text.len())
    }

    fn enter(&mut self, open: u8) -> Option<()> {
        self.depth_left = self.depth_left.checked_sub(1).filter(|&d| d > 0)?;
        self.eat(open)
    }

    fn leave(&mut self) {
        self.depth_left += 1;
    }

    /// A string free of escapes and control characters, valid UTF-8.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.pos;
        let len = self.bytes[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if self.bytes[start + len] != b'"' {
            return None;
        }
        self.pos = start + len + 1;
        std::str::from_utf8(&self.bytes[start..start + len]).ok()
    }

    fn number(&mut self) -> Option<ScannedNumber<'a>> {
        let (number, end) = scan_json_number(self.bytes, self.pos)?;
        number.check_digits(self.max_digits).ok()?;
        self.pos = end;
        Some(number)
    }

    /// The items of an array, each read by `item`.
    fn array<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.enter(b'[')?;
        let mut items = Vec::new();
        if self.eat(b']').is_none() {
            loop {
                items.push(item(self)?);
                if self.eat(b',').is_none() {
                    self.eat(b']')?;
                    break;
                }
            }
        }
        self.leave();
        Some(items)
    }

    /// The members of an object, keys strictly ascending, each value read by
    /// `member` (given its key).
    fn object(&mut self, mut member: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.enter(b'{')?;
        if self.eat(b'}').is_none() {
            let mut last: Option<&str> = None;
            loop {
                let key = self.string()?;
                if last.is_some_and(|last| last >= key) {
                    return None;
                }
                last = Some(key);
                self.eat(b':')?;
                member(self, key)?;
                if self.eat(b',').is_none() {
                    self.eat(b'}')?;
                    break;
                }
            }
        }
        self.leave();
        Some(())
    }

    fn value(&mut self, node: NodeId) -> Option<Value> {
        let plan = self.plan;
        match plan.node(node) {
            Node::Prim(prim) => self.prim(*prim),
            Node::List(item) => self.array(|r| r.value(*item)).map(Value::List),
            Node::Set(item) => {
                let items = self.array(|r| r.value(*item))?;
                ascending(&items, |v| v).then_some(Value::Set(items))
            }
            Node::Option(item) => {
                if self.peek()? == b'"' {
                    return (self.string()? == "None").then(Value::none);
                }
                let mut inner = None;
                self.object(|r, key| {
                    if key != "Some" {
                        return None;
                    }
                    inner = Some(r.value(*item)?);
                    Some(())
                })?;
                inner.map(Value::some)
            }
            Node::TextDict(item) => {
                let mut entries = Vec::new();
                self.object(|r, key| {
                    entries.push((key.to_owned(), r.value(*item)?));
                    Some(())
                })?;
                Some(Value::TextDict(entries))
            }
            Node::Dict(key, item) => {
                let entries = self.array(|r| {
                    r.enter(b'[')?;
                    let k = r.value(*key)?;
                    r.eat(b',')?;
                    let v = r.value(*item)?;
                    r.eat(b']')?;
                    r.leave();
                    Some((k, v))
                })?;
                ascending(&entries, |(k, _)| k).then_some(Value::Dict(entries))
            }
            Node::Tuple(parts) => self.parts(parts).map(Value::Tuple),
            Node::Record(record) => self.fields(&record.fields).map(Value::Record),
            Node::Enum(plan) => {
                let find = |name: &str| plan.constructors.iter().position(|c| &*c.name == name);
                if self.peek()? == b'"' {
                    let index = find(self.string()?)?;
                    let ctor = &plan.constructors[index];
                    return matches!(ctor.payload, PayloadPlan::None).then(|| {
                        Value::Enum(EnumValue {
                            index: index as u32,
                            name: ctor.name.clone(),
                            payload: EnumPayload::None,
                        })
                    });
                }
                let mut found = None;
                self.object(|r, name| {
                    if found.is_some() {
                        return None;
                    }
                    let index = find(name)?;
                    let ctor = &plan.constructors[index];
                    let payload = match &ctor.payload {
                        PayloadPlan::None => return None,
                        PayloadPlan::Positional(parts) if parts.len() == 1 => {
                            EnumPayload::Positional(vec![r.value(parts[0])?])
                        }
                        PayloadPlan::Positional(parts) => EnumPayload::Positional(r.parts(parts)?),
                        PayloadPlan::Named(fields) => EnumPayload::Named(r.fields(fields)?),
                    };
                    found = Some(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload }));
                    Some(())
                })?;
                found
            }
            // Rare: the old path reads them.
            Node::Host(_) | Node::Unservable(_) => None,
        }
    }

    fn parts(&mut self, parts: &[NodeId]) -> Option<Vec<Value>> {
        let mut next = parts.iter();
        let values = self.array(|r| r.value(*next.next()?))?;
        (values.len() == parts.len()).then_some(values)
    }

    /// A record or a named payload: every member one of its fields (the old
    /// path ignores others), every non-Option field present.
    fn fields(&mut self, fields: &[FieldPlan]) -> Option<Vec<(Arc<str>, Value)>> {
        let mut values: Vec<Option<Value>> = vec![None; fields.len()];
        self.object(|r, key| {
            let i = fields.iter().position(|f| &*f.name == key)?;
            let v = r.value(fields[i].ty)?;
            values[i] = Some(if fields[i].optional { Value::some(v) } else { v });
            Some(())
        })?;
        fields
            .iter()
            .zip(values)
            .map(|(field, value)| match value {
                Some(v) => Some((field.name.clone(), v)),
                None => field.optional.then(|| (field.name.clone(), Value::none())),
            })
            .collect()
    }

    fn prim(&mut self, prim: Prim) -> Option<Value> {
        Some(match prim {
            Prim::Int => Value::Int(self.number()?.to_number().to_bigint()?),
            Prim::Decimal => Value::Decimal(self.number()?.to_number()),
            Prim::Text => Value::Text(self.string()?.to_owned()),
            Prim::Bool => {
                if self.literal(b"true").is_some() {
                    Value::Bool(true)
                } else {
                    self.literal(b"false")?;
                    Value::Bool(false)
                }
            }
            Prim::Unit => {
                self.literal(b"null")?;
                Value::Unit
            }
            Prim::Bytes => Value::Bytes(flow_core::base64::decode(self.string()?).ok()?),
            Prim::Instant => Value::Instant(Instant::parse(self.string()?).ok()?),
            Prim::Duration => Value::Duration(Duration::parse(self.string()?).ok()?),
            Prim::JsonValue => Value::Json(self.json()?),
            Prim::Never => return None,
        })
    }

    /// Any JSON value, as [`flow_core::json::parse`] builds it.
    fn json(&mut self) -> Option<Json> {
        Some(match self.peek()? {
            b'"' => Json::String(self.string()?.to_owned()),
            b'[' => Json::Array(self.array(|r| r.json())?),
            b'{' => {
                let mut members = Vec::new();
                self.object(|r, key| {
                    members.push((key.to_owned(), r.json()?));
                    Some(())
                })?;
                Json::Object(Object::from_members(members).ok()?)
            }
            b't' => {
                self.literal(b"true")?;
                Json::Bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                Json::Bool(false)
            }
            b'n' => {
                self.literal(b"null")?;
                Json::Null
            }
            _ => Json::Number(self.number()?.to_number()),
        })
    }
}

/// Whether `items` strictly ascend in the Flow order: as the old path's
/// sort leaves them, with no two equal (which it refuses).
fn ascending<T>(items: &[T], key: impl Fn(&T) -> &Value) -> bool {
    items.windows(2).all(|w| key(&w[0]).flow_cmp(key(&w[1])).is_lt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::{parse::listing_from_text, Term};
    use flow_protocol::outcome::admit;
    use flow_testkit::Rng;

    const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");

    /// Text for a value at `node`: mostly canonical and decoding, sometimes
    /// not (an unsorted Set, a missing field, an extra member, an escape).
    fn text(rng: &mut Rng, plan: &Plan, node: NodeId, depth: usize) -> String {
        let items = |rng: &mut Rng, item: NodeId| -> Vec<String> {
            let n = if depth > 3 { 0 } else { rng.below(4) };
            (0..n).map(|_| text(rng, plan, item, depth + 1)).collect()
        };
        match plan.node(node) {
            Node::Prim(prim) => match prim {
                Prim::Int => rng.pick(&["0", "-7", "42", "123456789012345678901234567890", "1.5", "2e0", "\"1\""]),
                Prim::Decimal => rng.pick(&["0", "1.5", "-0.25", "12345678901234567890.50", "3", "1e2", "null"]),
                Prim::Text => rng.pick(&[r#""""#, r#""Oslo""#, r#""été""#, r#""a\"b""#, r#""\u00e9""#, "1"]),
                Prim::Bool => rng.pick(&["true", "false", "null"]),
                Prim::Unit => rng.pick(&["null", "0"]),
                Prim::Bytes => rng.pick(&[r#""""#, r#""AA==""#, r#""aGVsbG8=""#, r#""AA""#]),
                Prim::Instant => rng.pick(&[r#""2026-12-02T10:00:00Z""#, r#""1970-01-01T00:00:00.5Z""#, r#""x""#]),
                Prim::Duration => rng.pick(&[r#""PT0S""#, r#""PT1.5S""#, r#""PT-5S""#, r#""5S""#]),
                Prim::JsonValue => {
                    rng.pick(&["null", "1", r#"[1,"a"]"#, r#"{"a":1,"b":[true]}"#, "{}", r#"{"b":1,"a":2}"#])
                }
                Prim::Never => "null",
            }
            .to_owned(),
            Node::List(item) | Node::Set(item) => format!("[{}]", items(rng, *item).join(",")),
            Node::Option(item) => match rng.below(3) {
                0 => r#""None""#.to_owned(),
                _ => format!(r#"{{"Some":{}}}"#, text(rng, plan, *item, depth + 1)),
            },
            Node::TextDict(item) => {
                let keys = ["a", "b", "c"];
                let n = rng.below(3);
                let start = rng.below(3);
                let members: Vec<String> = (0..n)
                    .map(|i| format!(r#""{}":{}"#, keys[(start + i) % 3], text(rng, plan, *item, depth + 1)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            Node::Dict(key, item) => {
                let n = if depth > 3 { 0 } else { rng.below(3) };
                let pairs: Vec<String> = (0..n)
                    .map(|_| format!("[{},{}]", text(rng, plan, *key, depth + 1), text(rng, plan, *item, depth + 1)))
                    .collect();
                format!("[{}]", pairs.join(","))
            }
            Node::Tuple(parts) => {
                let parts: Vec<String> = parts.iter().map(|p| text(rng, plan, *p, depth + 1)).collect();
                format!("[{}]", parts.join(","))
            }
            Node::Record(record) => fields(rng, plan, &record.fields, depth),
            Node::Enum(e) => {
                let ctor = &e.constructors[rng.below(e.constructors.len())];
                match &ctor.payload {
                    PayloadPlan::None => format!(r#""{}""#, ctor.name),
                    PayloadPlan::Positional(parts) if parts.len() == 1 => {
                        format!(r#"{{"{}":{}}}"#, ctor.name, text(rng, plan, parts[0], depth + 1))
                    }
                    PayloadPlan::Positional(parts) => {
                        let parts: Vec<String> = parts.iter().map(|p| text(rng, plan, *p, depth + 1)).collect();
                        format!(r#"{{"{}":[{}]}}"#, ctor.name, parts.join(","))
                    }
                    PayloadPlan::Named(named) => format!(r#"{{"{}":{}}}"#, ctor.name, fields(rng, plan, named, depth)),
                }
            }
            Node::Host(_) | Node::Unservable(_) => "null".to_owned(),
        }
    }

    fn fields(rng: &mut Rng, plan: &Plan, fields: &[FieldPlan], depth: usize) -> String {
        let mut members: Vec<(String, String)> = Vec::new();
        for f in fields {
            if !(f.optional && rng.below(2) == 0) && rng.below(40) != 0 {
                members.push((f.name.to_string(), text(rng, plan, f.ty, depth + 1)));
            }
        }
        if rng.below(20) == 0 {
            members.push(("zz_extra".to_owned(), "1".to_owned()));
        }
        members.sort();
        let members: Vec<String> = members.iter().map(|(k, v)| format!(r#""{k}":{v}"#)).collect();
        format!("{{{}}}", members.join(","))
    }

    /// One byte inserted, dropped or changed, at random.
    fn mutate(rng: &mut Rng, text: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        let at = rng.below(bytes.len() + 1);
        let byte = *b" \",}]\\1x:[{".get(rng.below(11)).expect("in range");
        match rng.below(3) {
            0 => bytes.insert(at, byte),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ if at < bytes.len() => bytes[at] = byte,
            _ => bytes.push(byte),
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// What the reader decided before: the outcome's tree, then `admit`;
    /// `None` when the outcome is not JSON (the full parser then judges the line).
    fn old_path(outcome: &str, types: ReplyTypes<'_>, limits: &Limits) -> Option<CallOutcome> {
        let inner = Limits { max_depth: limits.max_depth - 2, ..*limits };
        flow_core::json::parse(outcome.as_bytes(), &inner).ok().map(|json| admit(json, types))
    }

    fn compiled() -> (Plan, Vec<NodeId>) {
        let limits = Limits::default();
        let listing = listing_from_text(WEATHER, &limits).unwrap();
        let d = &listing.declarations;
        let forecast = listing.tools.iter().find(|t| t.tool.ends_with("get_forecast")).unwrap();
        let (mut plan, ok) = Plan::compile(d, &forecast.ok).unwrap();
        let mut nodes = vec![ok, plan.add(d, &forecast.err).unwrap()];
        for tool in &listing.tools {
            if !tool.is_generic() {
                nodes.push(plan.add(d, &tool.ok).unwrap());
            }
        }
        let prim = |p| Box::new(Term::Prim(p));
        for term in [
            Term::Set(prim(Prim::Text)),
            Term::Set(prim(Prim::Int)),
            Term::Dict(prim(Prim::Int), prim(Prim::Decimal)),
            Term::Dict(prim(Prim::Text), prim(Prim::Int)),
            Term::Tuple(vec![Term::Prim(Prim::Instant), Term::Prim(Prim::Decimal), Term::Prim(Prim::Bytes)]),
            Term::Option(Box::new(Term::Option(prim(Prim::Int)))),
            Term::List(prim(Prim::Duration)),
            Term::List(prim(Prim::Bool)),
            Term::Prim(Prim::Unit),
            Term::Prim(Prim::JsonValue),
            Term::Prim(Prim::Never),
        ] {
            nodes.push(plan.add(d, &term).unwrap());
        }
        (plan, nodes)
    }

    #[test]
    fn the_one_pass_outcome_is_the_old_paths_over_many_replies() {
        let limits = Limits::default();
        let (plan, nodes) = compiled();
        let mut rng = Rng::new(0x5eed_1234_abcd_0001);
        let (mut hits, mut canonical_cases) = (0, 0);
        for case in 0..30_000 {
            let (ok, err) = (nodes[rng.below(nodes.len())], nodes[rng.below(nodes.len())]);
            let types = ReplyTypes { plan: &plan, ok, err };
            let tag = if rng.below(4) == 0 { "Failed" } else { "Ok" };
            let body = text(&mut rng, &plan, if tag == "Ok" { ok } else { err }, 0);
            let mut outcome = format!(r#"{{"{tag}":{body}}}"#);
            let mutated = rng.below(3) == 0;
            if mutated {
                outcome = mutate(&mut rng, &outcome);
            }
            let old = old_path(&outcome, types, &limits);
            let fast = admit_text(outcome.as_bytes(), types, &limits);
            if let Some(fast) = &fast {
                assert_eq!(Some(fast), old.as_ref(), "case {case}: {outcome}");
                hits += 1;
            }
            // What the old path decodes from text already canonical, the one pass must too.
            if let Some(CallOutcome::Ok(v) | CallOutcome::Failed(v)) = &old {
                let value_text = v.to_canonical();
                if !mutated && value_text == body && !body.contains('\\') {
                    canonical_cases += 1;
                    assert!(fast.is_some(), "case {case}: canonical {outcome} left to the old path");
                }
            }
        }
        assert!(canonical_cases > 5_000 && hits >= canonical_cases, "{hits} hits, {canonical_cases} canonical");
    }

    #[test]
    fn other_cases_and_deep_values_are_left_to_the_old_path() {
        let limits = Limits { max_depth: 8, ..Limits::default() };
        let (mut plan, ok) = Plan::compile(&Default::default(), &Term::Prim(Prim::JsonValue)).unwrap();
        let err = plan.add(&Default::default(), &Term::Prim(Prim::Text)).unwrap();
        let types = ReplyTypes { plan: &plan, ok, err };
        for outcome in [
            r#"{"NotRun":"r"}"#,
            r#"{"Unknown":"r"}"#,
            r#"{"Ok" :1}"#,
            r#"{"Ok":1,"Failed":"x"}"#,
            r#"{"Ok":"a\u0062"}"#,
        ] {
            assert_eq!(admit_text(outcome.as_bytes(), types, &limits), None, "{outcome}");
        }
        // Message 1, params 2, outcome 3, the Ok value 4: [[[[]]]] reaches 7, within
        // the limit of 8 but near enough to be left to the old path.
        let deep = br#"{"Ok":[[[[]]]]}"#;
        assert_eq!(admit_text(deep, types, &limits), None);
        assert!(old_path(std::str::from_utf8(deep).unwrap(), types, &limits).is_some(), "within the limit");
        assert!(admit_text(br#"{"Ok":[[]]}"#, types, &limits).is_some());
    }
}
