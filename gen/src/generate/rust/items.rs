//! The generated types: one struct per record, one enum per enum, one alias
//! per host token type, each with what its codec impls need. Everything
//! here is text ready to place: templates only put it in order.

use std::collections::BTreeMap;

use flow_core::types::{Body, Declarations, Field, Payload, Template};

use super::analysis::{Facts, Traits};
use super::compare::{self, Generics, PayloadShape, Shape, VariantShape};
use super::layout;
use super::names::json_string;
use super::names::{doc_lines, pascal, snake, string_literal, Scope, Style};
use super::terms::{Builtin, FileScope, Place, Terms};

/// One declaration's Rust type.
pub struct Item {
    pub record: Option<Record>,
    pub enumeration: Option<Enum>,
    pub host: Option<Host>,
}

/// What every record and enum has.
pub struct Common {
    /// The type's name.
    pub ident: String,
    /// Its Flow name, as a string literal (for messages).
    pub flow_name: String,
    /// `<T, U>` or nothing: the type parameters.
    pub generics: String,
    /// The type with its parameters: `Page<T>`.
    pub self_type: String,
    /// Doc comment lines, the identity last.
    pub doc: String,
    pub derives: String,
    /// The comparison impls written out (after a blank line each), for a
    /// type whose derives would bound a parameter no value uses.
    pub compare_impls: String,
    /// `std::marker::PhantomData<fn() -> (U, V)>`: what marks the parameters
    /// no value uses, when there are any.
    pub marker_type: Option<String>,
    /// Generics of the `FromValue` impl, with bounds.
    pub from_generics: String,
    /// Generics of the `IntoValue` impl, with bounds.
    pub into_generics: String,
    /// Generics of the `CanonicalText` impl, with bounds.
    pub write_generics: String,
    /// `String` as the codec file writes it (a declaration may take the name).
    pub string: String,
    /// The declaration's identity, as a string literal (for the messages of
    /// decoding, which name it).
    pub identity: String,
    /// Generics of the `FromJson` impl, with bounds.
    pub json_generics: String,
}

pub struct Record {
    pub common: Common,
    pub fields: Vec<FieldItem>,
    /// The field holding the marker of unused type parameters.
    pub marker: Option<String>,
}

pub struct FieldItem {
    pub ident: String,
    /// The Flow name as a string literal.
    pub name: String,
    /// The Flow name's JSON string and a colon, as a string literal: the
    /// member's head in canonical text.
    pub member: String,
    /// The Flow name itself, which members are sorted by.
    pub flow_name: String,
    pub ty: String,
    pub doc: String,
}

pub struct Enum {
    pub common: Common,
    pub variants: Vec<Variant>,
    /// The variant holding the marker of unused type parameters, beside a
    /// `Never`, so that it has no values.
    pub marker: Option<String>,
}

pub struct Variant {
    pub ident: String,
    /// The Flow name as a string literal.
    pub name: String,
    /// The Flow name itself.
    pub flow_name: String,
    /// The constructor's position in declaration order: its place in Flow's order.
    pub index: usize,
    pub doc: String,
    /// No payload.
    pub unit: bool,
    pub parts: Vec<String>,
    /// Named parts; `named` tells an empty named payload (`Blank {}`) from none.
    pub named: bool,
    pub fields: Vec<FieldItem>,
}

impl Variant {
    /// The variant in its enum: `Clear,`, `Cloudy(BigInt),`, or a block of
    /// named parts with their docs.
    pub fn declaration(&self) -> String {
        if self.unit {
            format!("{},", self.ident)
        } else if !self.named {
            format!("{}({}),", self.ident, self.parts.join(", "))
        } else if self.fields.is_empty() {
            format!("{} {{}},", self.ident)
        } else {
            // rustfmt's struct_variant_width: short undocumented parts stay on one line.
            let parts: Vec<String> = self.fields.iter().map(|f| format!("{}: {}", f.ident, f.ty)).collect();
            let one_line = format!("{} {{ {} }},", self.ident, parts.join(", "));
            if self.fields.iter().all(|f| f.doc.is_empty())
                && parts.join(", ").len() <= 35
                && 4 + one_line.len() <= layout::MAX_WIDTH
            {
                return one_line;
            }
            let mut out = format!("{} {{\n", self.ident);
            for field in &self.fields {
                out.push_str(&format!("{}        {}: {},\n", field.doc, field.ident, field.ty));
            }
            out.push_str("    },");
            out
        }
    }

    /// The match arm's expression (after `"Name" =>`) that builds this
    /// variant from a constructor's payload, in `FromValue`.
    pub fn decoding_arm(&self) -> String {
        let ident = &self.ident;
        if self.unit {
            format!("constructor.unit().map(|()| Self::{ident}),")
        } else if !self.named && self.parts.len() == 1 {
            format!("Ok(Self::{ident}(constructor.positional()?.part()?)),")
        } else if !self.named {
            let reads = vec!["parts.part()?"; self.parts.len()].join(", ");
            format!(
                "{{\n                let mut parts = constructor.positional()?;\n                Ok(Self::{ident}({reads}))\n            }}"
            )
        } else if self.fields.is_empty() {
            format!("constructor.named().map(|_| Self::{ident} {{}}),")
        } else {
            self.named_fields_arm()
        }
    }

    /// The match arm's expression (after `"Name" =>`) that builds this
    /// variant from a constructor's JSON payload, in `FromJson`.
    pub fn json_decoding_arm(&self) -> String {
        let ident = &self.ident;
        if self.unit {
            format!("Ok(Self::{ident}),")
        } else if !self.named && self.parts.len() == 1 {
            format!("Ok(Self::{ident}(constructor.part()?)),")
        } else if !self.named {
            let reads = vec!["parts.part()?"; self.parts.len()].join(", ");
            format!(
                "{{\n                let mut parts = constructor.parts({})?;\n                Ok(Self::{ident}({reads}))\n            }}",
                self.parts.len()
            )
        } else if self.fields.is_empty() {
            format!("constructor.named().map(|_| Self::{ident} {{}}),")
        } else {
            self.named_fields_arm()
        }
    }

    /// The arm of a constructor with named fields, the same in `FromValue`
    /// and `FromJson`: each reads its payload's fields by name.
    fn named_fields_arm(&self) -> String {
        let mut out = format!(
            "{{\n                let mut fields = constructor.named()?;\n                Ok(Self::{} {{\n",
            self.ident
        );
        for field in &self.fields {
            out.push_str(&format!("                    {}: fields.field({})?,\n", field.ident, field.name));
        }
        out.push_str("                })\n            }");
        out
    }

    /// This constructor's row of its enum's `FromJson` table: its name, and
    /// whether it takes a payload.
    pub fn json_table_row(&self) -> String {
        format!("({}, {})", self.name, !self.unit)
    }

    /// The match arm that turns this variant into a value, in `IntoValue`
    /// (the arms are indented by 12).
    pub fn encoding_arm(&self) -> String {
        let (ident, index, name) = (&self.ident, self.index, &self.name);
        let (pattern, head, values): (String, &str, Vec<String>) = if self.unit {
            let call = format!("flow::constructor({index}, {name}, flow::Payload::None)");
            return layout::match_arm(12, &format!("Self::{ident}"), |_| call.clone());
        } else if !self.named {
            let bindings: Vec<String> = (0..self.parts.len()).map(|i| format!("part{i}")).collect();
            let values = bindings.iter().map(|b| format!("{b}.into_value()")).collect();
            (format!("Self::{ident}({})", bindings.join(", ")), "flow::positional(vec!", values)
        } else {
            let bindings: Vec<&str> = self.fields.iter().map(|f| f.ident.as_str()).collect();
            let pattern = if bindings.is_empty() {
                format!("Self::{ident} {{}}")
            } else {
                format!("Self::{ident} {{ {} }}", bindings.join(", "))
            };
            let values = self.fields.iter().map(|f| format!("({}, {}.into_value())", f.name, f.ident)).collect();
            (pattern, "flow::named(vec!", values)
        };
        layout::match_arm(12, &pattern, |column| {
            // Broken, the call's arguments sit at 16 and the payload's items at 20.
            let payload = layout::list(16, column, head, "[", "])", &values, "");
            let payload =
                if payload.contains('\n') { layout::list(16, 16, head, "[", "])", &values, "") } else { payload };
            layout::list(12, column, "flow::constructor", "(", ")", &[index.to_string(), name.clone(), payload], "")
        })
    }
}

impl Enum {
    /// The constructor table of its `FromJson` impl, after its `=` (at 8):
    /// on that line, else on the next (as rustfmt breaks after `=`), else
    /// one row per line.
    pub fn json_table(&self) -> String {
        let rows: Vec<String> = self.variants.iter().map(Variant::json_table_row).collect();
        let joined = rows.join(", ");
        let one_line = format!("&[{joined}];");
        let column = 8 + "const CONSTRUCTORS: &[(&str, bool)] = ".len();
        if joined.len() <= layout::LIST_WIDTH && column + one_line.len() <= layout::MAX_WIDTH {
            format!(" &[{joined}]")
        } else if joined.len() <= layout::LIST_WIDTH && 12 + one_line.len() <= layout::MAX_WIDTH {
            format!("\n            &[{joined}]")
        } else {
            format!(" {}", layout::list(8, column, "&", "[", "]", &rows, ""))
        }
    }
}

impl Record {
    /// The body of `into_value` (indented by 8): the record value.
    pub fn encoding(&self) -> String {
        let values: Vec<String> =
            self.fields.iter().map(|f| format!("({}, self.{}.into_value())", f.name, f.ident)).collect();
        layout::list(8, 8, "flow::record(vec!", "[", "])", &values, "")
    }
}

pub struct Host {
    pub ident: String,
    pub doc: String,
    pub target: String,
}

/// The Rust names of the declarations: types (by local id) and each one's
/// type parameters.
pub struct Names {
    pub types: BTreeMap<String, String>,
    pub params: BTreeMap<String, Vec<String>>,
}

/// Names every generated declaration, in lexical order, claiming each in one
/// scope with the names the package's own modules take.
pub fn names(declarations: &Declarations, facts: &Facts, reserved: &[&str]) -> Names {
    let mut scope = Scope::new(Style::RustUpper).refer(reserved.iter().copied());
    let mut types = BTreeMap::new();
    for id in facts.generated.iter().chain(&facts.hosts) {
        types.insert(id.to_string(), scope.claim(&pascal(&declarations[*id].name)));
    }
    // Type parameters hide any type of their name inside their declaration,
    // so they take none of the declarations' or built-ins' names.
    scope.also_refer(FileScope::builtin_names());
    let mut params = BTreeMap::new();
    for id in &facts.generated {
        let mut local = Scope::new(Style::RustUpper);
        let names =
            declarations[*id].generic.iter().map(|name| local.claim_beside(&pascal(name), Some(&scope))).collect();
        params.insert(id.to_string(), names);
    }
    Names { types, params }
}

fn identity_doc(doc: Option<&str>, identity: &str, indent: &str) -> String {
    let mut out = doc_lines(doc, indent);
    if !out.is_empty() {
        out.push_str(indent);
        out.push_str("///\n");
    }
    out.push_str(&doc_lines(Some(&format!("`{identity}`")), indent));
    out
}

/// Builds every generated declaration's item, for `types.rs` and `codec.rs`.
pub fn items(
    declarations: &Declarations,
    facts: &Facts,
    names: &Names,
    terms: &Terms,
    scope: &FileScope,
) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    let mut ids: Vec<&str> = facts.generated.iter().chain(&facts.hosts).copied().collect();
    ids.sort_by_key(|id| (declarations[*id].lexical_ordinal, *id));
    for id in ids {
        let template = &declarations[id];
        let within = |e: String| format!("{}: {e}", template.identity);
        let item = match &template.body {
            Body::Record { fields } => {
                let mut idents = Scope::new(Style::RustSnake);
                let fields = field_items(fields, id, "    ", terms, scope, &mut idents).map_err(within)?;
                let mut common = common(id, template, facts, names, scope);
                let marker = common.marker_type.as_ref().map(|_| idents.claim("phantom"));
                if marker.is_some() {
                    let shape = Shape::Struct { fields: fields.iter().map(|f| f.ident.as_str()).collect() };
                    common.compare_impls =
                        compare::impls(&generics(id, facts, names, &common), &shape, facts.traits(id));
                }
                Item { record: Some(Record { common, fields, marker }), enumeration: None, host: None }
            }
            Body::Enum { constructors } => {
                let mut variant_names = Scope::new(Style::RustUpper);
                let mut variants = Vec::with_capacity(constructors.len());
                for (index, c) in constructors.iter().enumerate() {
                    let (parts, named, fields) = match &c.payload {
                        None => (Vec::new(), false, Vec::new()),
                        Some(Payload::Positional(parts)) => {
                            let place = Place::Member { owner: id };
                            let parts = parts.iter().map(|t| terms.render(t, place, scope)).collect::<Result<_, _>>();
                            (parts.map_err(within)?, false, Vec::new())
                        }
                        Some(Payload::Named(fields)) => {
                            let mut idents = Scope::new(Style::RustSnake);
                            (
                                Vec::new(),
                                true,
                                field_items(fields, id, "        ", terms, scope, &mut idents).map_err(within)?,
                            )
                        }
                    };
                    variants.push(Variant {
                        ident: variant_names.claim(&pascal(&c.name)),
                        name: string_literal(&c.name),
                        flow_name: c.name.clone(),
                        index,
                        doc: doc_lines(c.doc.as_deref(), "    "),
                        unit: c.payload.is_none(),
                        parts,
                        named,
                        fields,
                    });
                }
                let mut common = common(id, template, facts, names, scope);
                let marker = common.marker_type.as_ref().map(|_| variant_names.claim("Phantom"));
                if let Some(marker) = &marker {
                    let shapes = variants
                        .iter()
                        .map(|v| VariantShape {
                            ident: &v.ident,
                            payload: if v.unit {
                                PayloadShape::Unit
                            } else if v.named {
                                PayloadShape::Named(v.fields.iter().map(|f| f.ident.as_str()).collect())
                            } else {
                                PayloadShape::Positional(v.parts.len())
                            },
                        })
                        .collect();
                    let shape = Shape::Enum { variants: shapes, marker };
                    common.compare_impls =
                        compare::impls(&generics(id, facts, names, &common), &shape, facts.traits(id));
                }
                Item { record: None, enumeration: Some(Enum { common, variants, marker }), host: None }
            }
            Body::Host => Item {
                record: None,
                enumeration: None,
                host: Some(Host {
                    ident: names.types[id].clone(),
                    doc: identity_doc(template.doc.as_deref(), &template.identity, ""),
                    target: scope.builtin(Builtin::HostToken),
                }),
            },
            Body::Nondata => continue,
        };
        items.push(item);
    }
    Ok(items)
}

/// Fields (of a record, at `indent` 4, or of a named payload, at 8).
fn field_items(
    fields: &[Field],
    owner: &str,
    indent: &str,
    terms: &Terms,
    scope: &FileScope,
    idents: &mut Scope,
) -> Result<Vec<FieldItem>, String> {
    fields
        .iter()
        .map(|f| {
            Ok(FieldItem {
                ident: idents.claim(&snake(&f.name)),
                name: string_literal(&f.name),
                member: string_literal(&format!("{}:", json_string(&f.name))),
                flow_name: f.name.clone(),
                ty: terms
                    .render(&f.ty, Place::Member { owner }, scope)
                    .map_err(|e| format!("field {}: {e}", f.name))?,
                doc: doc_lines(f.doc.as_deref(), indent),
            })
        })
        .collect()
}

fn generics<'n>(id: &str, facts: &Facts, names: &'n Names, common: &'n Common) -> Generics<'n> {
    let params = names.params[id].iter().enumerate().map(|(i, name)| (name.as_str(), facts.used(id, i))).collect();
    Generics { params, self_type: &common.self_type }
}

fn common(id: &str, template: &Template, facts: &Facts, names: &Names, scope: &FileScope) -> Common {
    let ident = names.types[id].clone();
    let params: Vec<(usize, &String)> = names.params[id].iter().enumerate().collect();
    let list = |bound: &dyn Fn(usize, &str) -> String| -> String {
        if params.is_empty() {
            String::new()
        } else {
            format!("<{}>", params.iter().map(|(i, name)| bound(*i, name)).collect::<Vec<_>>().join(", "))
        }
    };
    let generics = list(&|_, name| name.to_owned());
    // A parameter no value uses needs no bound to decode or encode.
    let from_generics = list(&|i, name| match (facts.used(id, i), facts.needs_ord(id, i)) {
        (false, _) => name.to_owned(),
        (true, true) => format!("{name}: flow::FromValue + std::cmp::Ord"),
        (true, false) => format!("{name}: flow::FromValue"),
    });
    let into_generics =
        list(&|i, name| if facts.used(id, i) { format!("{name}: flow::IntoValue") } else { name.to_owned() });
    let write_generics =
        list(&|i, name| if facts.used(id, i) { format!("{name}: flow::CanonicalText") } else { name.to_owned() });
    let json_generics = list(&|i, name| match (facts.used(id, i), facts.needs_ord(id, i)) {
        (false, _) => name.to_owned(),
        (true, true) => format!("{name}: flow::FromJson + std::cmp::Ord"),
        (true, false) => format!("{name}: flow::FromJson"),
    });
    let unused: Vec<&str> = params.iter().filter(|(i, _)| !facts.used(id, *i)).map(|(_, n)| n.as_str()).collect();
    // `fn() -> U`: the marker holds no U, so it leaves `Send` and `Sync` alone.
    let marker_type = match unused.as_slice() {
        [] => None,
        [one] => Some(format!("std::marker::PhantomData<fn() -> {one}>")),
        many => Some(format!("std::marker::PhantomData<fn() -> ({})>", many.join(", "))),
    };
    // Derives bound every parameter; with a marked one, the comparisons are
    // written out instead (`compare`), bounding only the used ones.
    let derives = if marker_type.is_some() { "Debug, Clone".to_owned() } else { derive_list(facts.traits(id)) };
    Common {
        self_type: format!("{ident}{generics}"),
        ident,
        flow_name: string_literal(&template.name),
        generics,
        doc: identity_doc(template.doc.as_deref(), &template.identity, ""),
        derives,
        compare_impls: String::new(),
        marker_type,
        from_generics,
        into_generics,
        write_generics,
        string: scope.builtin(Builtin::String),
        identity: string_literal(&template.identity),
        json_generics,
    }
}

/// The derives a type with `traits` takes.
fn derive_list(traits: Traits) -> String {
    let mut derives = vec!["Debug", "Clone"];
    if traits.eq {
        derives.extend(["PartialEq", "Eq"]);
    }
    if traits.ord {
        derives.extend(["PartialOrd", "Ord"]);
    }
    if traits.hash {
        derives.push("Hash");
    }
    derives.join(", ")
}
