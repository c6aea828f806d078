//! Generic Tools (`host-boundary.md`, "Toolkits"): values of a type parameter
//! reach the author as JSON, and everything around them keeps its mapping. A
//! `dedupe<T>(items: Set<T>) -> List<T>` handler gets a `ReadonlySet` of JSON
//! values (in the order of T's type description, as decoded) and returns an
//! array of JSON values.
//!
//! Both directions walk the Tool's *declared* term beside the call's JSON:
//! - at a `Param` of the Tool, the JSON is handed over (or taken) as is;
//! - where no Param is inside, the concrete part is decoded (or encoded) with
//!   the ordinary mapping, through a plan compiled for that part;
//! - in between (List, Option, records, ...), the structure is followed.
//!
//! What goes back out is JSON, which the server core decodes at the call's
//! concrete types: every rule (set order and duplicates, the Option-field
//! rule, limits) is checked there once, and a result that fails is Unknown.

use flow_core::json::{Json, Object};
use flow_core::plan::Plan;
use flow_core::types::{resolve_named, Body, Declarations, Payload, Term, TOOL_OWNER};
use flow_core::{Error, Limits, Rule};
use napi::Result;

use crate::from_js::{Fault, FromJs, R};
use crate::js::{Js, Kind, Raw};
use crate::to_js::ToJs;

fn has_tool_param(term: &Term) -> bool {
    let mut found = false;
    term.walk(&mut |t| {
        if matches!(t, Term::Param { owner, .. } if owner == TOOL_OWNER) {
            found = true;
        }
    });
    found
}

fn is_option(term: &Term) -> bool {
    matches!(term, Term::Option(_))
}

fn no_limits() -> Limits {
    Limits { max_bytes: usize::MAX, ..Limits::default() }
}

/// JSON of a call (canonical, already decoded at the concrete types) to the
/// JavaScript the author sees, following the declared term.
pub fn json_to_js(to: &mut ToJs, js: Js, json: &Json, term: &Term, decls: &Declarations) -> Result<Raw> {
    if !has_tool_param(term) {
        let (plan, node) = Plan::compile(decls, term).map_err(internal)?;
        let value = flow_core::decode::from_json(json.clone(), &plan, node).map_err(internal)?;
        return to.value(&value);
    }
    let items = |json: &Json| json.as_array().map(<[Json]>::to_vec).ok_or_else(|| internal(shape()));
    match term {
        Term::Param { .. } => to.json(json),
        Term::List(t) => {
            let items = items(json)?;
            array(to, js, items.iter().map(|i| (i, &**t)), decls)
        }
        Term::Tuple(parts) => {
            let items = items(json)?;
            array(to, js, items.iter().zip(parts), decls)
        }
        Term::Set(t) => {
            let items = items(json)?;
            let a = array(to, js, items.iter().map(|i| (i, &**t)), decls)?;
            js.new_instance(to.classes().flow_set, &[a])
        }
        Term::Option(t) => match json {
            Json::String(s) if s == "None" => js.undefined(),
            Json::Object(o) => {
                let inner = o.get("Some").ok_or_else(|| internal(shape()))?;
                some(to, js, inner, t, decls)
            }
            _ => Err(internal(shape())),
        },
        Term::Dict(k, v) => {
            let pairs = js.array(0)?;
            let mut n = 0;
            if **k == Term::Prim(flow_core::types::Prim::Text) {
                let object = json.as_object().ok_or_else(|| internal(shape()))?;
                for (key, member) in object.iter() {
                    let pair = js.array(2)?;
                    js.set_index(pair, 0, js.string(key)?)?;
                    js.set_index(pair, 1, json_to_js(to, js, member, v, decls)?)?;
                    js.set_index(pairs, n, pair)?;
                    n += 1;
                }
                js.new_instance(to.classes().map, &[pairs])
            } else {
                for entry in items(json)? {
                    let kv = items(&entry)?;
                    let pair = js.array(2)?;
                    js.set_index(pair, 0, json_to_js(to, js, &kv[0], k, decls)?)?;
                    js.set_index(pair, 1, json_to_js(to, js, &kv[1], v, decls)?)?;
                    js.set_index(pairs, n, pair)?;
                    n += 1;
                }
                js.new_instance(to.classes().flow_map, &[pairs])
            }
        }
        Term::Named { declaration, args } => {
            let template = resolve_named(decls, declaration, args.len()).map_err(internal)?;
            let subst = |t: &Term| t.substitute(declaration, args);
            match &template.body {
                Body::Record { fields } => {
                    let object = json.as_object().ok_or_else(|| internal(shape()))?;
                    let fields: Vec<(String, Term)> = fields.iter().map(|f| (f.name.clone(), subst(&f.ty))).collect();
                    record(to, js, object, &fields, decls)
                }
                Body::Enum { constructors } => {
                    let out = js.object()?;
                    let (name, payload) = match json {
                        Json::String(name) => (name.clone(), None),
                        Json::Object(o) if o.len() == 1 => {
                            let (name, payload) = o.iter().next().expect("one member");
                            (name.to_owned(), Some(payload))
                        }
                        _ => return Err(internal(shape())),
                    };
                    let ctor = constructors.iter().find(|c| c.name == name).ok_or_else(|| internal(shape()))?;
                    js.set(out, js.string("case")?, js.string(&name)?)?;
                    let value = match (&ctor.payload, payload) {
                        (None, _) | (_, None) => None,
                        (Some(Payload::Positional(parts)), Some(p)) if parts.len() == 1 => {
                            Some(json_to_js(to, js, p, &subst(&parts[0]), decls)?)
                        }
                        (Some(Payload::Positional(parts)), Some(p)) => {
                            let items = items(p)?;
                            let parts: Vec<Term> = parts.iter().map(subst).collect();
                            Some(array(to, js, items.iter().zip(&parts), decls)?)
                        }
                        (Some(Payload::Named(fields)), Some(p)) => {
                            let object = p.as_object().ok_or_else(|| internal(shape()))?;
                            let fields: Vec<(String, Term)> =
                                fields.iter().map(|f| (f.name.clone(), subst(&f.ty))).collect();
                            Some(record(to, js, object, &fields, decls)?)
                        }
                    };
                    if let Some(value) = value {
                        js.set(out, js.string("value")?, value)?;
                    }
                    Ok(out)
                }
                Body::Host | Body::Nondata => Err(internal(shape())),
            }
        }
        _ => Err(internal(shape())),
    }
}

fn array<'t>(
    to: &mut ToJs,
    js: Js,
    items: impl Iterator<Item = (&'t Json, &'t Term)>,
    decls: &Declarations,
) -> Result<Raw> {
    let array = js.array(0)?;
    for (i, (item, term)) in items.enumerate() {
        js.set_index(array, i, json_to_js(to, js, item, term, decls)?)?;
    }
    Ok(array)
}

fn some(to: &mut ToJs, js: Js, inner: &Json, term: &Term, decls: &Declarations) -> Result<Raw> {
    let v = json_to_js(to, js, inner, term, decls)?;
    if is_option(term) {
        js.new_instance(to.classes().some, &[v])
    } else {
        Ok(v)
    }
}

fn record(to: &mut ToJs, js: Js, object: &Object, fields: &[(String, Term)], decls: &Declarations) -> Result<Raw> {
    let out = js.object()?;
    for (name, term) in fields {
        let Some(member) = object.get(name) else { continue };
        let v = match term {
            // The Option-field rule: present means Some, holding the payload.
            Term::Option(inner) => some(to, js, member, inner, decls)?,
            other => json_to_js(to, js, member, other, decls)?,
        };
        js.set_member(out, js.string(name)?, name, v)?;
    }
    Ok(out)
}

/// The author's JavaScript to the JSON of the declared term, for the core to
/// decode at the call's concrete type.
pub fn js_to_json(from: &mut FromJs, v: Raw, term: &Term, decls: &Declarations) -> R<Json> {
    let js = from.js;
    if !has_tool_param(term) {
        let (plan, node) = Plan::compile(decls, term).map_err(Fault::Flow)?;
        let mut concrete = FromJs::new(js, from.c, &plan, Limits::default())?;
        let value = concrete.value(v, node)?;
        return flow_core::json::parse_str(&value.to_canonical(), &no_limits()).map_err(Fault::Flow);
    }
    let refuse = |what: &str, from: &FromJs, v: Raw| -> R<Json> {
        let found = from.describe(v)?;
        Err(Fault::Flow(Error::new(Rule::Encode, format!("expected {what}, found {found}"))))
    };
    let is_array = |v: Raw| -> R<bool> { Ok(js.kind(v)? == Kind::Object && js.is_array(v)?) };
    match term {
        Term::Param { .. } => from.json(v),
        Term::List(t) => {
            if !is_array(v)? {
                return refuse("an array", from, v);
            }
            items(from, v, |_| t, decls)
        }
        Term::Tuple(parts) => {
            if !is_array(v)? || js.array_len(v)? != parts.len() {
                return refuse(&format!("a tuple of {} items", parts.len()), from, v);
            }
            items(from, v, |i| &parts[i], decls)
        }
        Term::Set(t) => {
            let Some(members) = from.members(v)? else { return refuse("a Set", from, v) };
            items(from, members, |_| t, decls)
        }
        Term::Option(t) => {
            if js.kind(v)? == Kind::Undefined {
                return Ok(Json::str("None"));
            }
            let inner = some_payload(from, v, t, decls)?;
            Ok(Json::object([("Some", inner)]))
        }
        Term::Dict(k, val) => {
            let Some(pairs) = from.entries(v)? else { return refuse("a Map", from, v) };
            let text_keys = **k == Term::Prim(flow_core::types::Prim::Text);
            let mut members = Vec::new();
            let mut out = Vec::new();
            for i in 0..js.array_len(pairs)? {
                let pair = js.get_index(pairs, i)?;
                let kj =
                    js_to_json(from, js.get_index(pair, 0)?, k, decls).map_err(|e| e.under_index(0).under_index(i))?;
                let vj = js_to_json(from, js.get_index(pair, 1)?, val, decls)
                    .map_err(|e| e.under_index(1).under_index(i))?;
                match (text_keys, kj) {
                    (true, Json::String(key)) => members.push((key, vj)),
                    (_, kj) => out.push(Json::Array(vec![kj, vj])),
                }
            }
            if text_keys {
                Object::from_members(members)
                    .map(Json::Object)
                    .map_err(|key| Fault::Flow(Error::new(Rule::DuplicateKey, format!("the key {key:?} twice"))))
            } else {
                Ok(Json::Array(out))
            }
        }
        Term::Named { declaration, args } => {
            let template = resolve_named(decls, declaration, args.len()).map_err(Fault::Flow)?;
            let subst = |t: &Term| t.substitute(declaration, args);
            match &template.body {
                Body::Record { fields } => {
                    let fields: Vec<(String, Term)> = fields.iter().map(|f| (f.name.clone(), subst(&f.ty))).collect();
                    record_json(from, v, &fields, decls)
                }
                Body::Enum { constructors } => {
                    let case = js.get_named(v, "case")?;
                    if js.kind(case)? != Kind::String {
                        return refuse("an enum value { case, value }", from, v);
                    }
                    let name = js.get_string(case)?;
                    let Some(ctor) = constructors.iter().find(|c| c.name == name) else {
                        return Err(Fault::Flow(Error::new(
                            Rule::Constructor,
                            format!("{name:?} is no constructor of {}", template.name),
                        )));
                    };
                    let payload = js.get_named(v, "value")?;
                    let under = |f: Fault| f.under_key("value");
                    let p = match &ctor.payload {
                        None => return Ok(Json::String(name)),
                        Some(Payload::Positional(parts)) if parts.len() == 1 => {
                            js_to_json(from, payload, &subst(&parts[0]), decls).map_err(under)?
                        }
                        Some(Payload::Positional(parts)) => {
                            let parts: Vec<Term> = parts.iter().map(subst).collect();
                            if !is_array(payload)? || js.array_len(payload)? != parts.len() {
                                return refuse(&format!("a tuple of {} parts", parts.len()), from, payload)
                                    .map_err(under);
                            }
                            items(from, payload, |i| &parts[i], decls).map_err(under)?
                        }
                        Some(Payload::Named(fields)) => {
                            let fields: Vec<(String, Term)> =
                                fields.iter().map(|f| (f.name.clone(), subst(&f.ty))).collect();
                            record_json(from, payload, &fields, decls).map_err(under)?
                        }
                    };
                    Ok(Json::object([(name, p)]))
                }
                Body::Host | Body::Nondata => Err(Fault::Flow(Error::new(Rule::NotServable, "no value crosses here"))),
            }
        }
        _ => Err(Fault::Flow(Error::new(Rule::NotServable, "no value crosses here"))),
    }
}

fn items<'t>(from: &mut FromJs, array: Raw, term: impl Fn(usize) -> &'t Term, decls: &Declarations) -> R<Json> {
    let js = from.js;
    let mut out = Vec::new();
    for i in 0..js.array_len(array)? {
        let item = js.get_index(array, i)?;
        out.push(js_to_json(from, item, term(i), decls).map_err(|e| e.under_index(i))?);
    }
    Ok(Json::Array(out))
}

fn some_payload(from: &mut FromJs, v: Raw, term: &Term, decls: &Declarations) -> R<Json> {
    let js = from.js;
    if is_option(term) {
        if js.kind(v)? == Kind::Object && js.instance_of(v, from.c.some)? {
            let inner = js.get_named(v, "value")?;
            return js_to_json(from, inner, term, decls).map_err(|e| e.under_key("value"));
        }
        let found = from.describe(v)?;
        return Err(Fault::Flow(Error::new(
            Rule::Encode,
            format!("expected undefined (None) or a Some (the payload is itself an Option), found {found}"),
        )));
    }
    js_to_json(from, v, term, decls)
}

fn record_json(from: &mut FromJs, v: Raw, fields: &[(String, Term)], decls: &Declarations) -> R<Json> {
    let js = from.js;
    if js.kind(v)? != Kind::Object || js.is_array(v)? {
        let found = from.describe(v)?;
        return Err(Fault::Flow(Error::new(Rule::Encode, format!("expected an object, found {found}"))));
    }
    let mut members = Vec::new();
    for (name, term) in fields {
        let member = js.get_named(v, name)?;
        let present = js.kind(member)? != Kind::Undefined;
        let json = match (term, present) {
            (Term::Option(_), false) => continue,
            (Term::Option(inner), true) => some_payload(from, member, inner, decls),
            // Missing: left out, for the core to refuse naming the field.
            (_, false) => continue,
            (other, true) => js_to_json(from, member, other, decls),
        };
        members.push((name.clone(), json.map_err(|e| e.under_key(name))?));
    }
    Ok(Json::Object(Object::from_members(members).expect("field names are unique")))
}

fn shape() -> Error {
    Error::new(Rule::Shape, "the call's JSON does not have its declared shape")
}

fn internal(e: Error) -> napi::Error {
    napi::Error::new(napi::Status::GenericFailure, format!("generic call: {e}"))
}
