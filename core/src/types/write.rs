//! Writing type descriptions back to JSON, in exactly the shapes
//! [`super::parse`] reads, so that a TypeSpec embedded in generated code reads
//! back to the same model. Member arrays keep their order; object keys are
//! sorted by the `Json` object itself, which changes none of those arrays.
//!
//! Also a short type text for messages (`List<Page<T>>`), which is for people
//! only and not the `$defs` key text of `decisions.md` section 4.

use num_bigint::BigInt;

use super::model::*;
use crate::json::{Json, Object};
use crate::number::Number;

fn integer(value: u64) -> Json {
    Json::Number(Number::from_bigint(&BigInt::from(value)))
}

fn doc(doc: &Option<String>) -> Json {
    doc.as_ref().map_or(Json::Null, |d| Json::str(d.as_str()))
}

fn names(names: &[String]) -> Json {
    Json::Array(names.iter().map(|n| Json::str(n.as_str())).collect())
}

fn tagged(tag: &str, value: Json) -> Json {
    Json::object([(tag, value)])
}

fn terms(terms: &[Term]) -> Json {
    Json::Array(terms.iter().map(term_to_json).collect())
}

/// A term in its JSON form: a primitive's name, or a one-member object.
pub fn term_to_json(term: &Term) -> Json {
    match term {
        Term::Prim(p) => Json::str(p.name()),
        Term::List(t) => tagged("List", term_to_json(t)),
        Term::Set(t) => tagged("Set", term_to_json(t)),
        Term::Option(t) => tagged("Option", term_to_json(t)),
        Term::Task(t) => tagged("Task", term_to_json(t)),
        Term::Dict(k, v) => tagged("Dict", Json::Array(vec![term_to_json(k), term_to_json(v)])),
        Term::Tuple(items) => tagged("Tuple", terms(items)),
        Term::Function { params, result } => {
            tagged("Function", Json::object([("params", terms(params)), ("result", term_to_json(result))]))
        }
        Term::Named { declaration, args } => {
            tagged("Named", Json::object([("declaration", Json::str(declaration.as_str())), ("args", terms(args))]))
        }
        Term::Param { owner, index } => {
            // usize always fits u64 on the platforms Rust supports.
            let index = u64::try_from(*index).unwrap_or(u64::MAX);
            tagged("Param", Json::object([("owner", Json::str(owner.as_str())), ("index", integer(index))]))
        }
    }
}

fn field_to_json(field: &Field) -> Json {
    Json::object([
        ("name", Json::str(field.name.as_str())),
        ("type", term_to_json(&field.ty)),
        ("doc", doc(&field.doc)),
    ])
}

fn fields_to_json(fields: &[Field]) -> Json {
    Json::Array(fields.iter().map(field_to_json).collect())
}

fn constructor_to_json(constructor: &Constructor) -> Json {
    let payload = match &constructor.payload {
        None => Json::Null,
        Some(Payload::Positional(parts)) => tagged("positional", terms(parts)),
        Some(Payload::Named(fields)) => tagged("named", fields_to_json(fields)),
    };
    Json::object([("name", Json::str(constructor.name.as_str())), ("doc", doc(&constructor.doc)), ("payload", payload)])
}

/// A template: the common members plus `fields` or `constructors`.
pub fn template_to_json(template: &Template) -> Json {
    let mut object = Object::new();
    object.insert("name", Json::str(template.name.as_str()));
    object.insert("identity", Json::str(template.identity.as_str()));
    object.insert("lexical_ordinal", integer(template.lexical_ordinal));
    object.insert("generic", names(&template.generic));
    object.insert("opaque", Json::Bool(template.opaque));
    object.insert("kind", Json::str(template.body.kind()));
    object.insert("doc", doc(&template.doc));
    match &template.body {
        Body::Record { fields } => object.insert("fields", fields_to_json(fields)),
        Body::Enum { constructors } => {
            object.insert("constructors", Json::Array(constructors.iter().map(constructor_to_json).collect()))
        }
        Body::Host | Body::Nondata => {}
    }
    Json::Object(object)
}

/// A declaration map, local id to template.
pub(crate) fn declarations_to_json(declarations: &Declarations) -> Json {
    let mut object = Object::new();
    for (id, template) in declarations {
        object.insert(id.as_str(), template_to_json(template));
    }
    Json::Object(object)
}

fn params_to_json(params: &[Param]) -> Json {
    Json::Array(
        params
            .iter()
            .map(|p| Json::object([("name", Json::str(p.name.as_str())), ("type", term_to_json(&p.ty))]))
            .collect(),
    )
}

/// One Tool of a listing.
pub(crate) fn tool_to_json(tool: &ToolDecl) -> Json {
    Json::object([
        ("tool", Json::str(tool.tool.as_str())),
        ("doc", doc(&tool.doc)),
        ("generic", names(&tool.generic)),
        ("params", params_to_json(&tool.params)),
        ("ok", term_to_json(&tool.ok)),
        ("err", term_to_json(&tool.err)),
    ])
}

/// A tools listing (`decisions.md` section 6).
pub fn listing_to_json(listing: &Listing) -> Json {
    Json::object([
        ("data", Json::str(listing.data.as_str())),
        ("tools", Json::Array(listing.tools.iter().map(tool_to_json).collect())),
        ("declarations", declarations_to_json(&listing.declarations)),
    ])
}

/// A TypeSpec: exactly its five members.
pub fn type_spec_to_json(spec: &TypeSpec) -> Json {
    Json::object([
        ("generic", names(&spec.generic)),
        ("params", params_to_json(&spec.params)),
        ("ok", term_to_json(&spec.ok)),
        ("err", term_to_json(&spec.err)),
        ("declarations", declarations_to_json(&spec.declarations)),
    ])
}

/// A call's types view: exactly its five members.
pub fn call_view_to_json(view: &CallView) -> Json {
    let bindings = view
        .bindings
        .iter()
        .map(|(name, ty)| Json::object([("name", Json::str(name.as_str())), ("type", term_to_json(ty))]))
        .collect();
    Json::object([
        ("bindings", Json::Array(bindings)),
        ("params", params_to_json(&view.params)),
        ("ok", term_to_json(&view.ok)),
        ("err", term_to_json(&view.err)),
        ("declarations", declarations_to_json(&view.declarations)),
    ])
}

/// A term as short type text for messages: `List<Page<T>>`, `(Int,Text)`,
/// `fn(Int)->Text`. Named terms show their template's name (or `#id` when
/// the local id does not resolve); a Param shows its name in `scope_generic`,
/// the type parameter names of the declaration or Tool the term sits in
/// (validated terms use no other owner).
pub fn term_text(term: &Term, declarations: &Declarations, scope_generic: &[String]) -> String {
    let mut out = String::new();
    write_text(&mut out, term, declarations, scope_generic);
    out
}

fn write_text(out: &mut String, term: &Term, decls: &Declarations, generic: &[String]) {
    let list = |out: &mut String, items: &[Term]| {
        for (i, t) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_text(out, t, decls, generic);
        }
    };
    match term {
        Term::Prim(p) => out.push_str(p.name()),
        Term::List(t) | Term::Set(t) | Term::Option(t) | Term::Task(t) => {
            out.push_str(match term {
                Term::List(_) => "List<",
                Term::Set(_) => "Set<",
                Term::Option(_) => "Option<",
                _ => "Task<",
            });
            write_text(out, t, decls, generic);
            out.push('>');
        }
        Term::Dict(k, v) => {
            out.push_str("Dict<");
            write_text(out, k, decls, generic);
            out.push(',');
            write_text(out, v, decls, generic);
            out.push('>');
        }
        Term::Tuple(items) => {
            out.push('(');
            list(out, items);
            out.push(')');
        }
        Term::Function { params, result } => {
            out.push_str("fn(");
            list(out, params);
            out.push_str(")->");
            write_text(out, result, decls, generic);
        }
        Term::Named { declaration, args } => {
            match decls.get(declaration) {
                Some(t) => out.push_str(&t.name),
                None => out.push_str(&format!("#{declaration}")),
            }
            if !args.is_empty() {
                out.push('<');
                list(out, args);
                out.push('>');
            }
        }
        Term::Param { owner, index } => match generic.get(*index) {
            Some(name) => out.push_str(name),
            None => out.push_str(&format!("Param({owner},{index})")),
        },
    }
}
