//! Properties of generated schemas over random declaration graphs: every
//! schema's canonical text is stable, generation is deterministic, `$ref`s
//! resolve to exactly the `$defs` present, and the canonical form is the
//! describe form with descriptions and versions stripped, as
//! `decisions.md` section 4 defines it.

use proptest::collection::vec;
use proptest::prelude::*;

use flow_core::fingerprint::fingerprint;
use flow_core::json::{self, Json};
use flow_core::schema::{key_of_reference, schema_of, SchemaForm};
use flow_core::types::{
    Body, Constructor, Declarations, Field, Param, Payload, Prim, Template, Term, ToolDecl, TOOL_OWNER,
};
use flow_core::{Limits, Rule};

const VERSION: &str = "@1.0.0";
const TOOL_GENERIC: [&str; 2] = ["T", "U"];

fn identity(i: usize) -> String {
    // `~` and `/` exercise pointer escaping.
    format!("r.org/a~b{VERSION}/m.flow.D{i}")
}

fn prim() -> impl Strategy<Value = Term> {
    prop::sample::select(Prim::ALL.to_vec()).prop_map(Term::Prim)
}

/// Compound data terms over `leaf`.
fn compound(leaf: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Term::List(Box::new(t))),
            inner.clone().prop_map(|t| Term::Set(Box::new(t))),
            inner.clone().prop_map(|t| Term::Option(Box::new(t))),
            (inner.clone(), inner.clone()).prop_map(|(k, v)| Term::Dict(Box::new(k), Box::new(v))),
            (prop::bool::ANY, inner.clone()).prop_map(|(text, v)| {
                let k = if text { Term::Prim(Prim::Text) } else { Term::Prim(Prim::Int) };
                Term::Dict(Box::new(k), Box::new(v))
            }),
            vec(inner, 2..4).prop_map(Term::Tuple),
        ]
    })
    .boxed()
}

/// A term inside declaration `owner`'s template. Named arguments are
/// primitives or the owner's bare parameters, so recursion never expands
/// (decisions.md 2a).
fn template_term(owner: usize, arities: &[usize]) -> BoxedStrategy<Term> {
    let own = arities[owner];
    let param = move |index| Term::Param { owner: (owner + 1).to_string(), index };
    let arg = if own == 0 { prim().boxed() } else { prop_oneof![prim(), (0..own).prop_map(param)].boxed() };
    let n = arities.len();
    let arities = arities.to_vec();
    let named =
        (0..n).prop_flat_map(move |j| vec(arg.clone(), arities[j]).prop_map(move |args| named(j, args))).boxed();
    let leaf = if own == 0 {
        prop_oneof![2 => prim(), 1 => named].boxed()
    } else {
        prop_oneof![2 => prim(), 1 => named, 1 => (0..own).prop_map(param)].boxed()
    };
    compound(leaf)
}

fn named(j: usize, args: Vec<Term>) -> Term {
    Term::Named { declaration: (j + 1).to_string(), args }
}

fn doc() -> impl Strategy<Value = Option<String>> {
    prop::option::of("[a-z ~/@]{1,8}")
}

fn fields(term: BoxedStrategy<Term>, names: &'static [&'static str]) -> impl Strategy<Value = Vec<Field>> {
    // Unique names: a prefix of `names`, each with a type and a doc.
    vec((term, doc()), 0..=names.len()).prop_map(move |parts| {
        parts.into_iter().zip(names).map(|((ty, doc), name)| Field { name: (*name).to_owned(), ty, doc }).collect()
    })
}

fn body(term: BoxedStrategy<Term>) -> impl Strategy<Value = Body> {
    let payload = prop_oneof![
        Just(None),
        vec(term.clone(), 1..3).prop_map(|parts| Some(Payload::Positional(parts))),
        fields(term.clone(), &["x", "description", "y"]).prop_map(|f| Some(Payload::Named(f))),
    ];
    let constructor = (payload, doc());
    prop_oneof![
        4 => fields(term, &["a", "b", "description", "c"]).prop_map(|fields| Body::Record { fields }),
        4 => vec(constructor, 1..4).prop_map(|cs| Body::Enum {
            constructors: cs
                .into_iter()
                .enumerate()
                .map(|(i, (payload, doc))| Constructor { name: format!("C{i}"), doc, payload })
                .collect(),
        }),
        1 => Just(Body::Host),
        1 => Just(Body::Nondata),
    ]
}

fn declarations() -> impl Strategy<Value = Declarations> {
    vec(0..=2usize, 1..=4)
        .prop_flat_map(|arities| {
            let templates: Vec<_> = (0..arities.len())
                .map(|i| {
                    let generic: Vec<String> = (0..arities[i]).map(|g| format!("P{g}")).collect();
                    (body(template_term(i, &arities)), doc()).prop_map(move |(body, doc)| Template {
                        name: format!("D{i}"),
                        identity: identity(i),
                        lexical_ordinal: i as u64 + 1,
                        generic: generic.clone(),
                        opaque: false,
                        doc,
                        body,
                    })
                })
                .collect();
            (Just(arities), templates)
        })
        .prop_map(|(_, templates)| templates.into_iter().enumerate().map(|(i, t)| ((i + 1).to_string(), t)).collect())
}

/// A Tool root: any data term, Tool type parameters, and named types whose
/// arguments may be anything, functions and Tasks included.
fn root(declarations: &Declarations) -> BoxedStrategy<Term> {
    let arities: Vec<usize> = declarations.values().map(|t| t.generic.len()).collect();
    let tool_param = (0..TOOL_GENERIC.len()).prop_map(|index| Term::Param { owner: TOOL_OWNER.into(), index });
    let arg = prop_oneof![
        3 => compound(prop_oneof![prim(), tool_param.clone()].boxed()),
        1 => (vec(prim(), 0..2), prim()).prop_map(|(params, result)| Term::Function { params, result: Box::new(result) }),
        1 => prim().prop_map(|t| Term::Task(Box::new(t))),
    ]
    .boxed();
    let n = arities.len();
    let named = (0..n).prop_flat_map(move |j| vec(arg.clone(), arities[j]).prop_map(move |args| named(j, args)));
    compound(prop_oneof![2 => prim(), 1 => tool_param, 3 => named].boxed())
}

fn graph_and_roots() -> impl Strategy<Value = (Declarations, Vec<Term>)> {
    declarations().prop_flat_map(|d| {
        let roots = vec(root(&d), 1..4);
        (Just(d), roots)
    })
}

fn generic_names() -> Vec<String> {
    TOOL_GENERIC.iter().map(|g| (*g).to_owned()).collect()
}

fn generate(term: &Term, declarations: &Declarations, form: SchemaForm) -> Result<Json, flow_core::Error> {
    schema_of(term, declarations, form, &generic_names())
}

/// The stripping decisions.md 4 describes, done on the describe form's tree:
/// drop every `description` keyword (not properties so named) and every
/// `@VERSION` in `$defs` keys and `$ref`s.
fn strip(schema: &Json) -> Json {
    let Json::Object(members) = schema else { return schema.clone() };
    let mut out = Vec::new();
    for (key, value) in members.iter() {
        let value = match key {
            "description" => continue,
            "$ref" => Json::str(value.as_str().unwrap().replace(VERSION, "")),
            "$defs" | "properties" => {
                let entries = value.as_object().unwrap().iter().map(|(k, v)| {
                    let k = if key == "$defs" { k.replace(VERSION, "") } else { k.to_owned() };
                    (k, strip(v))
                });
                Json::object(entries)
            }
            "prefixItems" | "oneOf" => Json::Array(value.as_array().unwrap().iter().map(strip).collect()),
            "items" | "additionalProperties" => strip(value),
            _ => value.clone(),
        };
        out.push((key.to_owned(), value));
    }
    Json::object(out)
}

/// Every `$ref` below `schema`, unescaped; and that no `$defs` appears below the root.
fn refs(schema: &Json, at_root: bool, out: &mut Vec<String>) {
    match schema {
        Json::Object(members) => {
            for (key, value) in members.iter() {
                match key {
                    "$ref" => {
                        let reference = value.as_str().unwrap();
                        // A URI fragment: nothing but letters, digits, the
                        // fragment's own punctuation and `%XX` (upper case).
                        let fragment = reference.strip_prefix("#/$defs/").expect("a $defs reference");
                        assert!(
                            fragment.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@?%".contains(&b)),
                            "{reference}"
                        );
                        assert!(
                            !fragment.split('%').skip(1).any(|hex| {
                                hex.len() < 2
                                    || !hex.bytes().take(2).all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
                            }),
                            "{reference}"
                        );
                        out.push(key_of_reference(reference).expect("a reference this module writes"));
                    }
                    "$defs" => {
                        assert!(at_root, "$defs below the root");
                        value.as_object().unwrap().iter().for_each(|(_, v)| refs(v, false, out));
                    }
                    _ => refs(value, false, out),
                }
            }
        }
        Json::Array(items) => items.iter().for_each(|v| refs(v, false, out)),
        _ => {}
    }
}

fn check(schema: &Json) {
    // Canonical text is stable: reading it back and writing it again changes nothing.
    let text = schema.to_canonical();
    let reread = json::parse_str(&text, &Limits::default()).expect("canonical text reads back");
    assert_eq!(&reread, schema);
    assert_eq!(reread.to_canonical(), text);
    // $refs resolve to exactly the $defs present.
    let mut targets = Vec::new();
    refs(schema, true, &mut targets);
    targets.sort();
    targets.dedup();
    let defs: Vec<String> = match schema.as_object().and_then(|o| o.get("$defs")) {
        Some(defs) => {
            assert!(!defs.as_object().unwrap().is_empty(), "an empty $defs");
            defs.as_object().unwrap().keys().map(str::to_owned).collect()
        }
        None => Vec::new(),
    };
    assert_eq!(targets, defs);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn schemas_are_stable_and_the_canonical_form_is_the_stripped_describe_form((d, roots) in graph_and_roots()) {
        for root in &roots {
            let describe = generate(root, &d, SchemaForm::Describe);
            let canonical = generate(root, &d, SchemaForm::Canonical);
            match (describe, canonical) {
                (Ok(describe), Ok(canonical)) => {
                    check(&describe);
                    check(&canonical);
                    prop_assert_eq!(strip(&describe).to_canonical(), canonical.to_canonical());
                    prop_assert!(!canonical.to_canonical().contains(VERSION));
                    // Deterministic.
                    prop_assert_eq!(generate(root, &d, SchemaForm::Canonical).unwrap(), canonical);
                }
                // Both forms refuse alike: a type that cannot cross (a
                // function, Task or nondata type in a value position, a host
                // token in a Set element or Dict key), with the same message.
                (Err(a), Err(b)) => {
                    prop_assert_eq!(a.rule, Rule::CannotCross, "{}", a);
                    prop_assert_eq!(&a, &b);
                    prop_assert!(flow_core::types::crossing(root, &d, &generic_names()).is_err());
                }
                (a, b) => prop_assert!(false, "the forms disagree: {:?} / {:?}", a, b),
            }
        }
    }

    #[test]
    fn docs_do_not_move_fingerprints((d, roots) in graph_and_roots()) {
        let tool = ToolDecl {
            tool: format!("r.org/a~b{VERSION}/m.flow.tool"),
            doc: Some("A Tool.".into()),
            generic: TOOL_GENERIC.iter().map(|g| (*g).to_owned()).collect(),
            params: roots.iter().enumerate().map(|(i, ty)| Param { name: format!("p{i}"), ty: ty.clone() }).collect(),
            ok: roots[0].clone(),
            err: Term::Prim(Prim::Never),
        };
        let mut undocumented = d.clone();
        for template in undocumented.values_mut() {
            template.doc = None;
            match &mut template.body {
                Body::Record { fields } => fields.iter_mut().for_each(|f| f.doc = None),
                Body::Enum { constructors } => {
                    for c in constructors {
                        c.doc = None;
                        if let Some(Payload::Named(fields)) = &mut c.payload {
                            fields.iter_mut().for_each(|f| f.doc = None);
                        }
                    }
                }
                Body::Host | Body::Nondata => {}
            }
        }
        match (fingerprint(&tool, &d), fingerprint(&tool, &undocumented)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} / {:?}", a, b),
        }
    }
}
