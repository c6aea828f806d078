//! Refusals that teach: for the mistakes a person writing a listing by hand is
//! likely to make, the refusal's sentence ends with what to write instead.
//!
//! Parsing reads each term on its own, so it cannot know which declaration
//! names or type parameters are in scope. This pass runs on a refusal, never
//! on a success: it looks at the refused JSON at the error's path, and at the
//! document around it (the declarations' names, the owner's type parameters),
//! and appends the fix. The rule and the path stay as they were.
//!
//! The fixes:
//! - type text (`"Option<Text>"`, `"List<Day>"`, `"string"`) becomes the term
//!   it means (`{"Option":"Text"}`), every part translated or no fix at all;
//! - a declaration's name becomes `{"Named":{"declaration":ID,"args":[]}}`
//!   with its local id;
//! - a type parameter's name becomes `{"Param":{"owner":OWNER,"index":N}}`;
//! - `null` as a Tool's err is `"Never"` (a Tool that cannot fail), as its
//!   ok `"Unit"`;
//! - a misspelt term tag or primitive gets the nearest one.

use crate::error::{Error, Rule, Seg};
use crate::json::{Json, Object};
use crate::suggest::nearest;

use super::model::Prim;
use super::rules::quote;

/// The tags of compound terms.
const TAGS: [&str; 9] = ["List", "Set", "Option", "Task", "Dict", "Tuple", "Function", "Named", "Param"];

/// Adds the fix to a refusal of `document` (a tools listing), when one is known.
pub(crate) fn teach(document: &Json, error: Error) -> Error {
    let scope = Scope::of(document, &error.path.0);
    let Some(refused) = lookup(document, &error.path.0) else { return error };
    let fix = match (error.rule, refused) {
        (Rule::UnknownTerm, Json::String(text)) => scope.text_fix(text),
        (Rule::UnknownTerm, Json::Null) => null_fix(&error.path.0),
        (Rule::UnknownTerm, Json::Object(object)) => scope.tag_fix(object),
        (Rule::Unresolved, Json::Object(object)) => scope.unresolved_fix(object),
        _ => None,
    };
    match fix {
        Some(fix) => Error { message: format!("{}; {fix}", error.message), ..error },
        None => error,
    }
}

/// Adds the fix to a refusal of a standalone term (a `--type` argument) that
/// is resolved in `declarations` (a declaration map as JSON): a
/// declaration's name gets its local id, type text its term.
pub(crate) fn teach_term(term: &Json, declarations: &Json, error: Error) -> Error {
    let document = Json::object([("declarations", declarations.clone()), ("term", term.clone())]);
    let inside = Error {
        path: crate::error::Path(std::iter::once(Seg::Key("term".to_owned())).chain(error.path.0).collect()),
        ..error
    };
    let taught = teach(&document, inside);
    Error { path: crate::error::Path(taught.path.0.into_iter().skip(1).collect()), ..taught }
}

/// The JSON at `path` in `document`.
fn lookup<'a>(document: &'a Json, path: &[Seg]) -> Option<&'a Json> {
    path.iter().try_fold(document, |json, seg| match (seg, json) {
        (Seg::Key(key), Json::Object(object)) => object.get(key),
        (Seg::Index(i), Json::Array(items)) => items.get(*i),
        _ => None,
    })
}

fn null_fix(path: &[Seg]) -> Option<String> {
    match path {
        [Seg::Key(tools), Seg::Index(_), Seg::Key(member)] if tools == "tools" => match member.as_str() {
            "err" => Some("for a Tool that cannot fail, write \"Never\"".to_owned()),
            "ok" => Some("for a Tool that returns nothing, write \"Unit\"".to_owned()),
            _ => None,
        },
        _ => Some("a term is never null; an optional value is {\"Option\":TERM}".to_owned()),
    }
}

/// What is in scope where a refusal happened.
struct Scope<'a> {
    /// `(name, local id, generic count)` of every declaration of the document.
    declarations: Vec<(&'a str, &'a str, usize)>,
    /// The type parameters of the Tool or template the refusal is inside,
    /// and the owner its Params use.
    generic: Vec<&'a str>,
    owner: &'a str,
}

impl<'a> Scope<'a> {
    fn of(document: &'a Json, path: &[Seg]) -> Scope<'a> {
        let root = document.as_object();
        let declarations_json = root.and_then(|o| o.get("declarations")).and_then(Json::as_object);
        let declarations = declarations_json
            .map(|map| {
                map.iter()
                    .filter_map(|(id, template)| {
                        let template = template.as_object()?;
                        let name = template.get("name")?.as_str()?;
                        Some((name, id, generic_names(template).len()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let (owner, owner_json) = match path {
            [Seg::Key(tools), Seg::Index(i), ..] if tools == "tools" => {
                let tool = root.and_then(|o| o.get("tools")).and_then(Json::as_array).and_then(|t| t.get(*i));
                ("tool", tool.and_then(Json::as_object))
            }
            [Seg::Key(key), Seg::Key(id), ..] if key == "declarations" => {
                let template = declarations_json.and_then(|map| map.iter().find(|(k, _)| k == id));
                match template {
                    Some((id, template)) => (id, template.as_object()),
                    None => ("tool", None),
                }
            }
            _ => ("tool", None),
        };
        Scope { declarations, generic: owner_json.map(generic_names).unwrap_or_default(), owner }
    }

    /// A string that is no primitive term.
    fn text_fix(&self, text: &str) -> Option<String> {
        if let Some(term) = self.translate(text.trim()) {
            let what = if self.generic.contains(&text) {
                format!("{} is a type parameter: write {term}", quote(text))
            } else if self.unique_declaration(text).is_some() {
                format!("{} names a declaration: write {term}", quote(text))
            } else {
                format!("write {term}")
            };
            return Some(what);
        }
        if let Some((_, id, arity)) = split_type_text(text.trim()).and_then(|(head, _)| self.unique_declaration(head)) {
            let args = vec!["TERM"; arity].join(",");
            return Some(format!(
                "{} names a declaration with {arity} type parameter(s): write {{\"Named\":{{\"declaration\":{},\"args\":[{args}]}}}}",
                quote(text),
                quote(id)
            ));
        }
        nearest(text, Prim::ALL.iter().map(|p| p.name())).map(|p| format!("did you mean {}?", quote(p)))
    }

    /// An object with an unknown tag: the nearest tag, with its content kept.
    fn tag_fix(&self, object: &Object) -> Option<String> {
        let mut members = object.iter();
        let (Some((tag, inner)), None) = (members.next(), members.next()) else { return None };
        if TAGS.contains(&tag) {
            // A known tag holding the wrong thing: its own message says what.
            return None;
        }
        let fixed = alias_tag(tag).or_else(|| nearest(tag, TAGS.iter().copied()))?;
        Some(format!("write {{{}:{}}}", quote(fixed), inner.to_canonical()))
    }

    /// A Named term whose declaration is a declaration's name, not its id.
    fn unresolved_fix(&self, object: &Object) -> Option<String> {
        let named = object.get("Named")?.as_object()?;
        let declaration = named.get("declaration")?.as_str()?;
        let (_, id, _) = self.unique_declaration(declaration)?;
        Some(format!("{} is a declaration's name; its local id is {}", quote(declaration), quote(id)))
    }

    fn unique_declaration(&self, name: &str) -> Option<(&'a str, &'a str, usize)> {
        let mut found = self.declarations.iter().filter(|(n, _, _)| *n == name);
        match (found.next(), found.next()) {
            (Some(one), None) => Some(*one),
            _ => None,
        }
    }

    /// Type text as people write it (`Option<Text>`, `List<Day>`, `T`,
    /// `string`), as the canonical text of the term it means; `None` unless
    /// every part is understood.
    fn translate(&self, text: &str) -> Option<String> {
        let (head, args) = split_type_text(text)?;
        if args.is_empty() {
            if let Some(prim) = Prim::from_name(head).or_else(|| alias_prim(head)) {
                return Some(quote(prim.name()));
            }
            if let Some(index) = self.generic.iter().position(|g| *g == head) {
                return Some(format!("{{\"Param\":{{\"owner\":{},\"index\":{index}}}}}", quote(self.owner)));
            }
        }
        let args = args.iter().map(|a| self.translate(a)).collect::<Option<Vec<_>>>()?;
        if let Some((_, id, arity)) = self.unique_declaration(head) {
            return (arity == args.len())
                .then(|| format!("{{\"Named\":{{\"declaration\":{},\"args\":[{}]}}}}", quote(id), args.join(",")));
        }
        let tag = if TAGS.contains(&head) { head } else { alias_tag(head)? };
        match (tag, args.as_slice()) {
            ("List" | "Set" | "Option" | "Task", [one]) => Some(format!("{{{}:{one}}}", quote(tag))),
            ("Dict", [key, value]) => Some(format!("{{\"Dict\":[{key},{value}]}}")),
            ("Tuple", parts) if parts.len() >= 2 => Some(format!("{{\"Tuple\":[{}]}}", parts.join(","))),
            _ => None,
        }
    }
}

fn generic_names(object: &Object) -> Vec<&str> {
    object
        .get("generic")
        .and_then(Json::as_array)
        .map(|g| g.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default()
}

/// `Name<A, B>` as `("Name", ["A", "B"])`, splitting only at top-level commas.
fn split_type_text(text: &str) -> Option<(&str, Vec<&str>)> {
    let Some(open) = text.find('<') else {
        let ok = !text.is_empty() && !text.contains(['>', ',', ' ']);
        return ok.then_some((text, Vec::new()));
    };
    let inner = text[open + 1..].strip_suffix('>')?;
    let (mut args, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.checked_sub(1)?,
            ',' if depth == 0 => {
                args.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(inner[start..].trim());
    (depth == 0 && args.iter().all(|a| !a.is_empty())).then_some((text[..open].trim(), args))
}

/// Other languages' names for the primitives.
fn alias_prim(name: &str) -> Option<Prim> {
    let prim = match name.to_ascii_lowercase().as_str() {
        "int" | "integer" | "bigint" | "i64" | "long" => Prim::Int,
        "decimal" | "number" | "float" | "double" | "f64" => Prim::Decimal,
        "text" | "string" | "str" => Prim::Text,
        "bool" | "boolean" => Prim::Bool,
        "bytes" | "binary" => Prim::Bytes,
        "unit" | "null" | "void" | "()" => Prim::Unit,
        "never" => Prim::Never,
        "instant" | "datetime" | "timestamp" => Prim::Instant,
        "duration" | "timedelta" => Prim::Duration,
        "json" | "json.value" | "any" => Prim::JsonValue,
        _ => return None,
    };
    Some(prim)
}

/// Other languages' names for the compound tags.
fn alias_tag(name: &str) -> Option<&'static str> {
    let tag = match name.to_ascii_lowercase().as_str() {
        "list" | "array" | "vec" | "sequence" => "List",
        "set" => "Set",
        "option" | "optional" | "maybe" => "Option",
        "dict" | "map" | "hashmap" => "Dict",
        "tuple" => "Tuple",
        "task" => "Task",
        "named" => "Named",
        "param" => "Param",
        _ => return None,
    };
    Some(tag)
}
