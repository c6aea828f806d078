//! TEMPORARY, tests only: a minimal reader from tools-listing JSON to the type
//! model, written while the real parser (`core/src/types/parse.rs`) is being
//! written on another branch. It trusts its input and panics on anything
//! unexpected. When merging, replace `listing` and `term` with the real parser
//! and delete this file.

use flow_core::json::{self, Json};
use flow_core::types::{Body, Constructor, Field, Listing, Param, Payload, Prim, Template, Term, ToolDecl};
use flow_core::Limits;

/// The example listing of `tests/examples/weather.tools.json`.
pub fn weather() -> Listing {
    listing(include_str!("../../../tests/examples/weather.tools.json"))
}

pub fn listing(text: &str) -> Listing {
    let json = json::parse_str(text, &Limits::default()).expect("listing JSON");
    let o = json.as_object().expect("listing object");
    Listing {
        data: s(o.get("data").unwrap()),
        tools: o.get("tools").unwrap().as_array().unwrap().iter().map(tool).collect(),
        declarations: o
            .get("declarations")
            .unwrap()
            .as_object()
            .unwrap()
            .iter()
            .map(|(id, t)| (id.to_owned(), template(t)))
            .collect(),
    }
}

/// A term from its JSON text (`"Int"`, `{"List": "Text"}`).
pub fn term_text(text: &str) -> Term {
    term(&json::parse_str(text, &Limits::default()).expect("term JSON"))
}

pub fn term(j: &Json) -> Term {
    if let Some(name) = j.as_str() {
        return Term::Prim(Prim::from_name(name).expect("primitive term"));
    }
    let o = j.as_object().expect("term object");
    let (tag, inner) = o.iter().next().expect("one member");
    let boxed = |j: &Json| Box::new(term(j));
    let terms = |j: &Json| j.as_array().unwrap().iter().map(term).collect::<Vec<_>>();
    match tag {
        "List" => Term::List(boxed(inner)),
        "Set" => Term::Set(boxed(inner)),
        "Option" => Term::Option(boxed(inner)),
        "Task" => Term::Task(boxed(inner)),
        "Dict" => {
            let mut kv = terms(inner);
            let v = kv.pop().unwrap();
            let k = kv.pop().unwrap();
            Term::Dict(Box::new(k), Box::new(v))
        }
        "Tuple" => Term::Tuple(terms(inner)),
        "Function" => {
            let f = inner.as_object().unwrap();
            Term::Function { params: terms(f.get("params").unwrap()), result: boxed(f.get("result").unwrap()) }
        }
        "Named" => {
            let n = inner.as_object().unwrap();
            Term::Named { declaration: s(n.get("declaration").unwrap()), args: terms(n.get("args").unwrap()) }
        }
        "Param" => {
            let p = inner.as_object().unwrap();
            let index = p.get("index").unwrap().to_canonical().parse().unwrap();
            Term::Param { owner: s(p.get("owner").unwrap()), index }
        }
        other => panic!("unknown term {other}"),
    }
}

fn s(j: &Json) -> String {
    j.as_str().expect("string").to_owned()
}

fn doc(j: Option<&Json>) -> Option<String> {
    j.and_then(Json::as_str).map(str::to_owned)
}

fn names(j: &Json) -> Vec<String> {
    j.as_array().unwrap().iter().map(s).collect()
}

fn tool(j: &Json) -> ToolDecl {
    let o = j.as_object().unwrap();
    ToolDecl {
        tool: s(o.get("tool").unwrap()),
        doc: doc(o.get("doc")),
        generic: names(o.get("generic").unwrap()),
        params: o
            .get("params")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let p = p.as_object().unwrap();
                Param { name: s(p.get("name").unwrap()), ty: term(p.get("type").unwrap()) }
            })
            .collect(),
        ok: term(o.get("ok").unwrap()),
        err: term(o.get("err").unwrap()),
    }
}

fn fields(j: &Json) -> Vec<Field> {
    j.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let f = f.as_object().unwrap();
            Field { name: s(f.get("name").unwrap()), ty: term(f.get("type").unwrap()), doc: doc(f.get("doc")) }
        })
        .collect()
}

fn template(j: &Json) -> Template {
    let o = j.as_object().unwrap();
    let body = match o.get("kind").unwrap().as_str().unwrap() {
        "record" => Body::Record { fields: fields(o.get("fields").unwrap()) },
        "enum" => Body::Enum {
            constructors: o
                .get("constructors")
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let c = c.as_object().unwrap();
                    let payload = match c.get("payload").unwrap() {
                        Json::Null => None,
                        Json::Object(p) => Some(match p.iter().next().unwrap() {
                            ("positional", parts) => {
                                Payload::Positional(parts.as_array().unwrap().iter().map(term).collect())
                            }
                            ("named", named) => Payload::Named(fields(named)),
                            (other, _) => panic!("unknown payload {other}"),
                        }),
                        other => panic!("bad payload {other:?}"),
                    };
                    Constructor { name: s(c.get("name").unwrap()), doc: doc(c.get("doc")), payload }
                })
                .collect(),
        },
        "host" => Body::Host,
        "nondata" => Body::Nondata,
        other => panic!("unknown kind {other}"),
    };
    Template {
        name: s(o.get("name").unwrap()),
        identity: s(o.get("identity").unwrap()),
        lexical_ordinal: o.get("lexical_ordinal").unwrap().to_canonical().parse().unwrap(),
        generic: names(o.get("generic").unwrap()),
        opaque: matches!(o.get("opaque"), Some(Json::Bool(true))),
        doc: doc(o.get("doc")),
        body,
    }
}
