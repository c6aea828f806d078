//! `flow-gen --lang python`: a Python package of the Tools of a listing.
//!
//! Files (`@generated` ones are rewritten on every run; the scaffold never):
//! - `models.py`: records as frozen, slotted, keyword-only dataclasses; each
//!   enum as one frozen dataclass per constructor plus a union alias. The
//!   classes of a declaration a Tool's error type names (itself or in an
//!   Option) are also `Exception`s made `flow_toolkit.raisable`, so that a
//!   handler raises the error to reply Failed; every other class stays a
//!   plain dataclass, without an exception's state (args, traceback, a
//!   `__dict__`), as values of the success and argument types need none.
//! - `tools.py`: an abstract class with one typed method per Tool, its doc.
//! - `metadata.py`: reads `flow.tools.json` (the listing) and
//!   `describe.json` (each Tool's identity, fingerprint and describe-form
//!   signature) beside it with `importlib.resources`, and makes the codec
//!   that knows the classes. Both JSON files are the Rust crate's, byte for
//!   byte.
//! - `__main__.py`: serves the package (`python3 -m PACKAGE`).
//! - `__init__.py`: re-exports the models and the Tools class.
//! - `flow.tools.json`, `describe.json`: the listing and the `describe`
//!   result, read by `metadata.py`.
//! - `implementation.py` (scaffold): the author's subclass, a stub per Tool.
//! - `pyproject.toml` (scaffold): the folder as a distribution, its JSON
//!   files as package data, so a wheel or sdist carries them.
//!
//! Names: a record and an enum alias take the NAME in PascalCase; a
//! constructor class is the enum's name followed by the constructor's
//! (`SkyCloudy`), which cannot collide with another enum's constructors
//! unless the concatenations are equal; every module-level name is claimed
//! in declaration order and a later equal name gets `_2`, `_3`, ... Fields,
//! parameters and methods keep a NAME that is a valid identifier, else its
//! snake_case; a Python keyword, or a name the generated annotations use
//! (`int`, `models`, ...), or a field of an error class spelled like an
//! attribute of `BaseException` (`args`, `with_traceback`, `add_note`), gets a
//! trailing `_`. A positional payload's one
//! part is `value`; several are `_0`, `_1`, ...
//!
//! The Option rule matches `flow_toolkit`'s (bindings-python `pyplan.rs`):
//! `Option<T>` is `T | None`, or `flow_toolkit.Some[T] | None` when T as
//! written is Unit, json.Value, an Option or a type parameter.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use askama::Template;
use flow_core::types::{Body, Declarations, Payload, Prim, Template as Decl, Term};

mod layout;
mod literals;

use layout::{fit_lines, isort_order};
pub use literals::{docstring, string_body, string_literal};

use super::{GenInput, Language, Output, DESCRIBE_FILE, LISTING_FILE};
use crate::naming::{ordered, pascal_case, render, snake_case, Lang, Scope, Style};

pub struct Python;

/// A member name (field, parameter, method) before its scope escapes it:
/// the NAME when it is an identifier, else its snake_case.
fn member_base(name: &str) -> String {
    if Lang::Python.is_identifier(name) {
        name.to_owned()
    } else {
        snake_case(name)
    }
}

fn header(input: &GenInput) -> String {
    Lang::Python.header(&input.source)
}

/// Whether a term's Python values, as written, may be None.
fn may_be_none(term: &Term) -> bool {
    matches!(term, Term::Prim(Prim::Unit | Prim::JsonValue) | Term::Option(_) | Term::Param { .. })
}

/// The Python names of the declarations.
struct ModelNames {
    /// A record's class, an enum's alias, by local id.
    types: HashMap<String, String>,
    /// An enum's constructor classes, by local id.
    ctors: HashMap<String, Vec<String>>,
    /// A type parameter name to its TypeVar.
    type_vars: BTreeMap<String, String>,
    /// The module's scope: every class and TypeVar, and what they avoid.
    module: Scope,
}

/// A class name before the module scope escapes it: PascalCase.
fn class_name(name: &str) -> String {
    pascal_case(name)
}

/// Class names of the declarations. `reserved` holds names the package
/// exports beside them (the Tools class), which a declaration must not take.
fn model_names(declarations: &Declarations, reserved: &[&str]) -> ModelNames {
    let mut module = Scope::new(Style::Python).refer(reserved.iter().copied()).numbering_referred();
    let mut names = ModelNames {
        types: HashMap::new(),
        ctors: HashMap::new(),
        type_vars: BTreeMap::new(),
        module: Scope::new(Style::Python),
    };
    for (id, decl) in ordered(declarations) {
        match &decl.body {
            Body::Record { .. } => {
                names.types.insert(id.clone(), module.claim(&class_name(&decl.name)));
            }
            Body::Enum { constructors } => {
                let alias = module.claim(&class_name(&decl.name));
                let ctors =
                    constructors.iter().map(|c| module.claim(&format!("{alias}{}", pascal_case(&c.name)))).collect();
                names.types.insert(id.clone(), alias);
                names.ctors.insert(id.clone(), ctors);
            }
            Body::Host | Body::Nondata => {}
        }
    }
    for (_, decl) in ordered(declarations) {
        for param in &decl.generic {
            if !names.type_vars.contains_key(param) {
                let var = module.claim(&class_name(param));
                names.type_vars.insert(param.clone(), var);
            }
        }
    }
    names.module = module;
    names
}

/// Writes Python annotations for terms, and notes the modules they use:
/// the imports of the file they are written into.
struct Annotations<'a> {
    declarations: &'a Declarations,
    names: &'a ModelNames,
    /// `models.` outside the models module.
    qualify: &'a str,
    modules: RefCell<BTreeSet<&'static str>>,
}

impl<'a> Annotations<'a> {
    fn new(declarations: &'a Declarations, names: &'a ModelNames, qualify: &'a str) -> Annotations<'a> {
        Annotations { declarations, names, qualify, modules: RefCell::default() }
    }

    /// `text`, an annotation from `module`.
    fn from(&self, module: &'static str, text: &str) -> String {
        self.modules.borrow_mut().insert(module);
        text.to_owned()
    }

    /// A declaration's class as this file writes it.
    fn class(&self, name: &str) -> String {
        if !self.qualify.is_empty() {
            self.modules.borrow_mut().insert("models");
        }
        format!("{}{name}", self.qualify)
    }

    /// `owner`: the declaration whose Params are in scope (None at a Tool's roots).
    fn of(&self, term: &Term, owner: Option<&Decl>) -> String {
        let of = |t: &Term| self.of(t, owner);
        match term {
            Term::Prim(p) => match p {
                Prim::Int => "int".into(),
                Prim::Decimal => self.from("decimal", "decimal.Decimal"),
                Prim::Bool => "bool".into(),
                Prim::Text => "str".into(),
                Prim::Bytes => "bytes".into(),
                Prim::Duration => self.from("flow_toolkit", "flow_toolkit.Duration"),
                Prim::Instant => self.from("flow_toolkit", "flow_toolkit.Instant"),
                Prim::Unit => "None".into(),
                Prim::Never => self.from("typing", "typing.Never"),
                Prim::JsonValue => self.from("flow_toolkit", "flow_toolkit.JsonValue"),
            },
            Term::List(t) => format!("list[{}]", of(t)),
            Term::Set(t) => format!("{}[{}]", self.from("flow_toolkit", "flow_toolkit.FlowSet"), of(t)),
            Term::Option(t) if may_be_none(t) => {
                format!("{}[{}] | None", self.from("flow_toolkit", "flow_toolkit.Some"), of(t))
            }
            Term::Option(t) => format!("{} | None", of(t)),
            Term::Dict(k, v) if **k == Term::Prim(Prim::Text) => format!("dict[str, {}]", of(v)),
            Term::Dict(k, v) => format!("{}[{}, {}]", self.from("flow_toolkit", "flow_toolkit.FlowMap"), of(k), of(v)),
            Term::Tuple(items) => format!("tuple[{}]", items.iter().map(of).collect::<Vec<_>>().join(", ")),
            Term::Task(_) | Term::Function { .. } => self.from("typing", "typing.Any"),
            // Outside a declaration every Param is the Tool's, inside one its
            // own, whatever its local id is called (it may be `tool`).
            Term::Param { .. } if owner.is_none() => self.from("flow_toolkit", "flow_toolkit.JsonValue"),
            Term::Param { index, .. } => match owner.and_then(|d| d.generic.get(*index)) {
                Some(name) => self.names.type_vars[name].clone(),
                None => self.from("typing", "typing.Any"),
            },
            Term::Named { declaration, args } => {
                let Some(decl) = self.declarations.get(declaration) else { return self.from("typing", "typing.Any") };
                match (&decl.body, self.names.types.get(declaration)) {
                    (Body::Host, _) => self.from("flow_toolkit", "flow_toolkit.HostToken"),
                    (_, Some(name)) if args.is_empty() => self.class(name),
                    // A generic enum's alias takes its type variables in the
                    // order they first appear in the union, which need not be
                    // the declaration's: write the union of its constructor
                    // classes, each with its own arguments, instead.
                    (Body::Enum { constructors }, Some(_)) => {
                        let classes = &self.names.ctors[declaration];
                        let members: Vec<String> = constructors
                            .iter()
                            .zip(classes)
                            .map(|(c, class)| {
                                let used = param_indices(&payload_terms(&c.payload));
                                if used.is_empty() {
                                    self.class(class)
                                } else {
                                    let args: Vec<String> = used.iter().map(|&i| of(&args[i])).collect();
                                    format!("{}[{}]", self.class(class), args.join(", "))
                                }
                            })
                            .collect();
                        members.join(" | ")
                    }
                    (_, Some(name)) => {
                        format!("{}[{}]", self.class(name), args.iter().map(of).collect::<Vec<_>>().join(", "))
                    }
                    _ => self.from("typing", "typing.Any"),
                }
            }
        }
    }
}

struct FieldView {
    name: String,
    annotation: String,
    default: String,
    doc: Option<String>,
}

#[derive(Template)]
#[template(path = "python/record.py", escape = "none")]
struct RecordTemplate {
    /// A class of a Tool's error type: an exception, `@flow_toolkit.raisable`.
    raisable: bool,
    options: String,
    class_name: String,
    bases: String,
    doc: String,
    fields: Vec<FieldView>,
    flow_index: Option<usize>,
}

#[derive(Template)]
#[template(path = "python/enum.py", escape = "none")]
struct EnumTemplate {
    constructors: Vec<String>,
    alias: String,
    members: String,
    doc: String,
}

#[derive(Template)]
#[template(path = "python/models.py", escape = "none")]
struct ModelsTemplate {
    header: String,
    /// The import lines, their groups apart by a blank line.
    imports: String,
    project: String,
    type_vars: Vec<String>,
    blocks: Vec<String>,
}

struct ParamView {
    name: String,
    annotation: String,
}

struct MethodView {
    name: String,
    params: Vec<ParamView>,
    returns: String,
    returns_plain: String,
    doc: String,
}

#[derive(Template)]
#[template(path = "python/tools.py", escape = "none")]
struct ToolsTemplate {
    header: String,
    imports: String,
    project: String,
    class_name: String,
    doc: String,
    methods: Vec<MethodView>,
}

struct ClassEntry {
    identity: String,
    value: String,
}

#[derive(Template)]
#[template(path = "python/metadata.py", escape = "none")]
struct MetadataTemplate {
    header: String,
    classes: Vec<ClassEntry>,
}

#[derive(Template)]
#[template(path = "python/main.py", escape = "none")]
struct MainTemplate {
    header: String,
    project: String,
    command: String,
    implementation: String,
    methods: Vec<String>,
}

#[derive(Template)]
#[template(path = "python/init.py", escape = "none")]
struct InitTemplate {
    header: String,
    all: Vec<String>,
    project: String,
    class_name: String,
    command: String,
    exports: Vec<String>,
}

#[derive(Template)]
#[template(path = "python/implementation.py", escape = "none")]
struct ImplementationTemplate {
    imports: String,
    project: String,
    class_name: String,
    implementation: String,
    methods: Vec<MethodView>,
}

#[derive(Template)]
#[template(path = "python/pyproject.toml", escape = "none")]
struct PyprojectTemplate<'a> {
    project: &'a str,
    package: &'a str,
    distribution: String,
    /// A TOML basic string (JSON's escapes are TOML's).
    description: String,
    toolkit: String,
}

/// The flow_toolkit releases a package generated by this flow-gen works
/// with: this version up to the next breaking one (the next minor before 1.0).
fn toolkit_requirement() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    let next = if major == 0 { format!("0.{}", minor + 1) } else { format!("{}", major + 1) };
    format!("flow-toolkit>={version},<{next}")
}

/// The name of the implementation class in the scaffold.
const IMPLEMENTATION: &str = "Implementation";

fn with_identity(doc: &Option<String>, line: String) -> String {
    match doc {
        Some(d) if !d.trim().is_empty() => format!("{}\n\n{line}", d.trim_end()),
        _ => line,
    }
}

/// What a field of an exception class must not be called: its slot would
/// hide `BaseException`'s own attribute (asyncio calls `with_traceback` on
/// an exception it re-raises).
const EXCEPTION_NAMES: &[&str] = &["args", "with_traceback", "add_note"];

/// The fields of a record or a named payload (`raisable`: of an exception class).
fn fields(
    fields: &[flow_core::types::Field],
    decl: &Decl,
    annotations: &Annotations,
    raisable: bool,
) -> Vec<FieldView> {
    // A field spelled like a module-level class would hide it from the
    // annotations in its class body: the body refers to every one.
    let mut scope = Scope::new(Style::Python).refer(["_flow_index"]);
    if raisable {
        scope.also_refer(EXCEPTION_NAMES.iter().copied());
    }
    fields
        .iter()
        .map(|f| FieldView {
            name: scope.claim_beside(&member_base(&f.name), Some(&annotations.names.module)),
            annotation: annotations.of(&f.ty, Some(decl)),
            default: if matches!(f.ty, Term::Option(_)) { " = None".into() } else { String::new() },
            doc: f.doc.as_ref().map(|d| docstring(d, 4)),
        })
        .collect()
}

/// A rendered file: ends in one newline, its lines held to ruff's width.
fn file(template: &impl Template) -> Result<String, String> {
    Ok(fit_lines(&render(template)?))
}

/// A rendered block (a class), without its final newline: the file's
/// template places the blank lines between blocks.
fn block(template: &impl Template) -> Result<String, String> {
    Ok(render(template)?.trim_end().to_owned())
}

/// The TypeVars a term mentions, as `owner`'s parameters, in first-use order.
fn params_used(terms: &[&Term], decl: &Decl, names: &ModelNames, out: &mut Vec<String>) {
    for index in param_indices(terms) {
        if let Some(var) = decl.generic.get(index).map(|n| names.type_vars[n].clone()) {
            out.push(var);
        }
    }
}

/// The indices of a declaration's own parameters that terms use, in first-use
/// order: the order of a constructor class's `Generic[...]` parameters.
fn param_indices(terms: &[&Term]) -> Vec<usize> {
    let mut out = Vec::new();
    for term in terms {
        term.walk(&mut |t| {
            if let Term::Param { index, .. } = t {
                if !out.contains(index) {
                    out.push(*index);
                }
            }
        });
    }
    out
}

/// The terms of a constructor's payload.
fn payload_terms(payload: &Option<Payload>) -> Vec<&Term> {
    match payload {
        None => Vec::new(),
        Some(Payload::Positional(parts)) => parts.iter().collect(),
        Some(Payload::Named(fields)) => fields.iter().map(|f| &f.ty).collect(),
    }
}

/// The class's bases: `Exception` for an error class, `typing.Generic[...]`
/// for a generic one.
fn bases(raisable: bool, vars: &[String]) -> String {
    let mut bases = Vec::new();
    if raisable {
        bases.push("Exception".to_owned());
    }
    if !vars.is_empty() {
        bases.push(format!("typing.Generic[{}]", vars.join(", ")));
    }
    if bases.is_empty() {
        String::new()
    } else {
        format!("({})", bases.join(", "))
    }
}

/// The local ids of the declarations whose classes a handler can raise: the
/// one a Tool's error type names, itself or as `Option<...>` (an instance is
/// then a value of the error type too). A declaration only inside an error
/// value (a field's type) is not raised, so it stays plain. `flow_toolkit`'s
/// `codec_for` makes its classes by the same rule.
fn error_declarations(input: &GenInput) -> HashSet<String> {
    let mut ids = HashSet::new();
    for tool in &input.tools {
        let err = match &tool.decl.err {
            Term::Option(inner) => inner.as_ref(),
            other => other,
        };
        if let Term::Named { declaration, .. } = err {
            ids.insert(declaration.clone());
        }
    }
    ids
}

/// The docstring line that says an error class may be raised.
const RAISE_LINE: &str = "A Tool's error: raise it to reply Failed.";

fn models(input: &GenInput, names: &ModelNames) -> Result<String, String> {
    let declarations = &input.listing.declarations;
    let annotations = Annotations::new(declarations, names, "");
    let errors = error_declarations(input);
    let mut blocks = Vec::new();
    for (id, decl) in ordered(declarations) {
        let raisable = errors.contains(id);
        let raise_line = if raisable { format!("\n\n{RAISE_LINE}") } else { String::new() };
        match &decl.body {
            Body::Record { fields: fs } => {
                let vars: Vec<String> = decl.generic.iter().map(|n| names.type_vars[n].clone()).collect();
                let line = format!("Flow record ``{}``.{raise_line}", decl.identity);
                blocks.push(block(&RecordTemplate {
                    raisable,
                    options: "frozen=True, slots=True, kw_only=True".into(),
                    class_name: names.types[id].clone(),
                    bases: bases(raisable, &vars),
                    doc: docstring(&with_identity(&decl.doc, line), 4),
                    fields: fields(fs, decl, &annotations, raisable),
                    flow_index: None,
                })?);
            }
            Body::Enum { constructors } => {
                let alias = &names.types[id];
                let mut rendered = Vec::new();
                let mut members = Vec::new();
                for (index, (c, class)) in constructors.iter().zip(&names.ctors[id]).enumerate() {
                    let (options, views, parts): (&str, Vec<FieldView>, Vec<&Term>) = match &c.payload {
                        None => ("frozen=True, slots=True", Vec::new(), Vec::new()),
                        Some(Payload::Positional(parts)) => {
                            let views = parts
                                .iter()
                                .enumerate()
                                .map(|(i, t)| FieldView {
                                    name: if parts.len() == 1 { "value".into() } else { format!("_{i}") },
                                    annotation: annotations.of(t, Some(decl)),
                                    default: String::new(),
                                    doc: None,
                                })
                                .collect();
                            ("frozen=True, slots=True", views, parts.iter().collect())
                        }
                        Some(Payload::Named(fs)) => (
                            "frozen=True, slots=True, kw_only=True",
                            fields(fs, decl, &annotations, raisable),
                            fs.iter().map(|f| &f.ty).collect(),
                        ),
                    };
                    let mut vars = Vec::new();
                    params_used(&parts, decl, names, &mut vars);
                    let line = format!("Constructor ``{}`` of :data:`{alias}`.{raise_line}", c.name);
                    rendered.push(block(&RecordTemplate {
                        raisable,
                        options: options.into(),
                        class_name: class.clone(),
                        bases: bases(raisable, &vars),
                        doc: docstring(&with_identity(&c.doc, line), 4),
                        fields: views,
                        flow_index: Some(index),
                    })?);
                    members.push(if vars.is_empty() { class.clone() } else { format!("{class}[{}]", vars.join(", ")) });
                }
                blocks.push(block(&EnumTemplate {
                    constructors: rendered,
                    alias: alias.clone(),
                    members: members.join(" | "),
                    doc: docstring(&with_identity(&decl.doc, format!("Flow enum ``{}``.", decl.identity)), 0),
                })?);
            }
            Body::Host | Body::Nondata => {}
        }
    }
    let type_vars: Vec<String> = names.type_vars.values().map(|v| format!("{v} = typing.TypeVar(\"{v}\")")).collect();
    // What the classes use beside their annotations: dataclasses for every
    // class; typing for an enum's alias and constructor index, and generics.
    let mut modules: BTreeSet<&str> = annotations.modules.into_inner();
    let declares = |enums_only: bool| {
        declarations
            .values()
            .any(|d| matches!(d.body, Body::Enum { .. }) || (!enums_only && matches!(d.body, Body::Record { .. })))
    };
    if declares(false) {
        modules.insert("dataclasses");
    }
    if declares(true) || !type_vars.is_empty() {
        modules.insert("typing");
    }
    // `@flow_toolkit.raisable` on the classes of an error type.
    if errors
        .iter()
        .any(|id| declarations.get(id).is_some_and(|d| matches!(d.body, Body::Record { .. } | Body::Enum { .. })))
    {
        modules.insert("flow_toolkit");
    }
    let imports: Vec<String> = ["dataclasses", "decimal", "typing"]
        .iter()
        .filter(|m| modules.contains(*m))
        .map(|m| format!("import {m}\n"))
        .collect();
    // Groups apart by a blank line; the template places what follows.
    let mut groups = Vec::new();
    if !imports.is_empty() {
        groups.push(imports.concat().trim_end().to_owned());
    }
    if modules.contains("flow_toolkit") {
        groups.push("import flow_toolkit".to_owned());
    }
    let imports = groups.join("\n\n");
    file(&ModelsTemplate { header: header(input), project: input.project.clone(), imports, type_vars, blocks })
}

/// The Tools' methods, and the modules their signatures use.
fn methods(input: &GenInput, names: &ModelNames) -> (Vec<MethodView>, BTreeSet<&'static str>) {
    let annotations = Annotations::new(&input.listing.declarations, names, "models.");
    // The docs name types too, which need no import.
    let docs = Annotations::new(&input.listing.declarations, names, "models.");
    let errors = error_declarations(input);
    // The Tools class body's annotations name the modules and builtins,
    // which the language's reserved names hold.
    let mut scope = Scope::new(Style::Python);
    let methods = input
        .tools
        .iter()
        .map(|tool| {
            let decl = tool.decl;
            let mut params_scope = Scope::new(Style::Python).refer(["self", "ctx"]);
            let params = decl
                .params
                .iter()
                .map(|p| ParamView {
                    name: params_scope.claim(&member_base(&p.name)),
                    annotation: annotations.of(&p.ty, None),
                })
                .collect();
            let ok = annotations.of(&decl.ok, None);
            // What can be raised: the named type, also out of an Option.
            let raised = match &decl.err {
                Term::Option(inner) => inner.as_ref(),
                other => other,
            };
            let err = if decl.err == Term::Prim(Prim::Never) {
                "It declares no error (Never).".to_owned()
            } else if matches!(raised, Term::Named { declaration, .. } if errors.contains(declaration)) {
                format!("Raise a ``{}`` (or ``flow_toolkit.Failed(error)``) to reply Failed.", docs.of(raised, None))
            } else {
                format!("Raise ``flow_toolkit.Failed(error)`` with a ``{}`` to reply Failed.", docs.of(&decl.err, None))
            };
            let generic = if decl.is_generic() {
                format!(
                    "\n\nGeneric in {}: values of a type parameter arrive and leave as JSON;\n``ctx.types`` holds the call's concrete types.",
                    decl.generic.join(", ")
                )
            } else {
                String::new()
            };
            let doc = with_identity(&decl.doc, format!("Flow Tool ``{}``.\n{err}{generic}", decl.tool));
            // `    ) -> RETURNS:` within 100 columns, else one alternative a line.
            let returns = if ok.len() * 2 + 40 > 100 {
                format!("(\n        {ok}\n        | typing.Awaitable[{ok}]\n    )")
            } else {
                format!("{ok} | typing.Awaitable[{ok}]")
            };
            MethodView {
                name: scope.claim(&member_base(decl.name())),
                params,
                returns,
                returns_plain: ok,
                doc: docstring(&doc, 8),
            }
        })
        .collect();
    let modules = annotations.modules.into_inner();
    (methods, modules)
}

/// The imports of a file whose annotations use `modules`, in ruff's
/// isort groups: the standard library, flow_toolkit, the package.
fn imports(modules: &BTreeSet<&'static str>, local: &[String]) -> String {
    let mut imports = Vec::new();
    for module in ["decimal", "typing"] {
        if modules.contains(module) {
            imports.push(format!("import {module}"));
        }
    }
    // One blank line between import groups, none where a group is empty.
    if !imports.is_empty() {
        imports.push(String::new());
    }
    imports.push("import flow_toolkit".to_owned());
    imports.push(String::new());
    if modules.contains("models") {
        imports.push("from . import models".to_owned());
    }
    imports.extend(local.iter().cloned());
    imports.join("\n").trim_end().to_owned()
}

fn class_entries(input: &GenInput, names: &ModelNames) -> Vec<ClassEntry> {
    ordered(&input.listing.declarations)
        .into_iter()
        .filter_map(|(id, decl)| {
            let value = match &decl.body {
                Body::Record { .. } => format!("models.{}", names.types[id]),
                Body::Enum { .. } => {
                    let classes: Vec<String> = names.ctors[id].iter().map(|c| format!("models.{c}")).collect();
                    let one_line = format!("({},)", classes.join(", "));
                    if one_line.len() + decl.identity.len() + 12 <= 100 {
                        one_line
                    } else {
                        let lines: Vec<String> = classes.iter().map(|c| format!("            {c},\n")).collect();
                        format!("(\n{}        )", lines.concat())
                    }
                }
                Body::Host | Body::Nondata => return None,
            };
            Some(ClassEntry { identity: string_literal(&decl.identity), value })
        })
        .collect()
}

fn package_name(out: &Path) -> Result<String, String> {
    let name = out.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if !Lang::Python.is_identifier(name) || crate::naming::reserved::PYTHON_KEYWORDS.contains(&name) {
        return Err(format!(
            "--out {}: a Python package folder must be named like a module (letters, digits, _), e.g. {}",
            out.display(),
            snake_case(name)
        ));
    }
    Ok(name.to_owned())
}

impl Language for Python {
    fn default_out(&self, input: &GenInput) -> PathBuf {
        PathBuf::from(format!("{}_tools", snake_case(&input.project)))
    }

    fn generate(&self, input: &GenInput, out: &Path) -> Result<Output, String> {
        let package = package_name(out)?;
        let class_name = format!("{}Tools", pascal_case(&input.project));
        // __init__.py exports the Tools class beside the models: a record
        // spelled like it (KeywordsTools) gets `_2` rather than shadow it.
        let names = model_names(&input.listing.declarations, &[&class_name]);
        // For people reading the package: flow.toml gets the dotted path from
        // the manifest's folder (`serve_command`).
        let command = format!("python3 -m {package}");
        let (methods, modules) = methods(input, &names);
        // The abstract methods' results are `T | typing.Awaitable[T]`.
        let mut abstract_modules = modules.clone();
        if !methods.is_empty() {
            abstract_modules.insert("typing");
        }
        let tools_imports = imports(&abstract_modules, &[]);
        let scaffold_imports = imports(&modules, &[format!("from .tools import {class_name}")]);
        let mut output = Output::default();
        output.generated("models.py", models(input, &names)?);
        output.generated(
            "tools.py",
            file(&ToolsTemplate {
                header: header(input),
                imports: tools_imports,
                project: input.project.clone(),
                class_name: class_name.clone(),
                doc: docstring(&format!("The Tools of {}. Subclass and implement every method.", input.project), 4),
                methods: methods
                    .iter()
                    .map(|m| MethodView {
                        name: m.name.clone(),
                        params: m
                            .params
                            .iter()
                            .map(|p| ParamView { name: p.name.clone(), annotation: p.annotation.clone() })
                            .collect(),
                        returns: m.returns.clone(),
                        returns_plain: m.returns_plain.clone(),
                        doc: m.doc.clone(),
                    })
                    .collect(),
            })?,
        );
        output.generated(
            "metadata.py",
            file(&MetadataTemplate { header: header(input), classes: class_entries(input, &names) })?,
        );
        output.generated(LISTING_FILE, input.listing_file());
        output.generated(DESCRIBE_FILE, input.describe_file());
        output.generated(
            "__main__.py",
            file(&MainTemplate {
                header: header(input),
                project: input.project.clone(),
                command: command.clone(),
                implementation: IMPLEMENTATION.into(),
                methods: methods.iter().map(|m| m.name.clone()).collect(),
            })?,
        );
        let mut exports: Vec<String> = names.types.values().chain(names.ctors.values().flatten()).cloned().collect();
        exports.sort_by(|a, b| isort_order(a, b));
        let mut all = exports.clone();
        all.push(class_name.clone());
        all.sort();
        output.generated(
            "__init__.py",
            file(&InitTemplate {
                header: header(input),
                all,
                project: input.project.clone(),
                class_name: class_name.clone(),
                command,
                exports,
            })?,
        );
        output.scaffold(
            "pyproject.toml",
            render(&PyprojectTemplate {
                project: &input.project,
                package: &package,
                distribution: package.replace('_', "-"),
                description: {
                    let mut text = String::new();
                    flow_core::json::write_string(
                        &mut text,
                        &format!("The Flow Tools of {}, served with flow_toolkit", input.project),
                    );
                    text
                },
                toolkit: toolkit_requirement(),
            })?,
        );
        output.scaffold(
            "implementation.py",
            file(&ImplementationTemplate {
                imports: scaffold_imports,
                project: input.project.clone(),
                class_name,
                implementation: IMPLEMENTATION.into(),
                methods,
            })?,
        );
        Ok(output)
    }

    fn serve_command(&self, _input: &GenInput, out: &Path, folder: &Path) -> Result<String, String> {
        // `python3 -m` run in the manifest's folder finds a package only by
        // its dotted path from there, each part an identifier.
        let parts = module_path(out, folder)?;
        Ok(format!("python3 -m {}", parts.join(".")))
    }
}

/// The folders from `folder` down to `out`, each a name `python3 -m` takes
/// as a module: `Err` names the path, the rule and the fix.
fn module_path(out: &Path, folder: &Path) -> Result<Vec<String>, String> {
    use std::path::Component;
    let absolute = |path: &Path| {
        let mut parts: Vec<std::ffi::OsString> = Vec::new();
        let joined = if path.is_absolute() { path.to_path_buf() } else { folder.join(path) };
        for component in joined.components() {
            match component {
                Component::Normal(part) => parts.push(part.to_owned()),
                Component::ParentDir => {
                    parts.pop();
                }
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        parts
    };
    let (inside, base) = (absolute(out), absolute(folder));
    let outside = || {
        format!(
            "--out {}: outside flow.toml's folder ({}), where its command runs, so `python3 -m` cannot find the \
             package; generate it inside that folder (--out NAME), or run flow-gen from the folder above the \
             package, or pass --no-manifest and bind the Tools with a command of your own",
            out.display(),
            folder.display()
        )
    };
    if inside.len() <= base.len() || inside[..base.len()] != base[..] {
        return Err(outside());
    }
    inside[base.len()..]
        .iter()
        .map(|part| {
            let name = part.to_str().unwrap_or_default();
            let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if identifier && !crate::naming::reserved::PYTHON_KEYWORDS.contains(&name) {
                Ok(name.to_owned())
            } else {
                let suggestion: String =
                    part.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
                Err(format!(
                    "--out {}: `python3 -m` takes each folder of the package's path as a module name, and {:?} is \
                     not one (ASCII letters, digits and underscores, not starting with a digit, not a Python \
                     keyword); name the folder like {}, or pass --no-manifest and bind the Tools with a command \
                     of your own",
                    out.display(),
                    part.to_string_lossy(),
                    if suggestion.starts_with(|c: char| c.is_ascii_digit()) {
                        format!("_{suggestion}")
                    } else {
                        suggestion
                    }
                ))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_path_is_the_packages_from_the_manifests_folder() {
        let folder = Path::new("/work/app");
        assert_eq!(module_path(Path::new("weather_tools"), folder).unwrap(), ["weather_tools"]);
        assert_eq!(module_path(Path::new("./gen/./weather_tools"), folder).unwrap(), ["gen", "weather_tools"]);
        assert_eq!(module_path(Path::new("/work/app/gen/w"), folder).unwrap(), ["gen", "w"]);
        assert_eq!(module_path(Path::new("sub/../w"), folder).unwrap(), ["w"]);
        let outside = module_path(Path::new("/tmp/elsewhere-1541/gen"), folder).unwrap_err();
        assert!(
            outside.starts_with("--out /tmp/elsewhere-1541/gen: outside flow.toml's folder (/work/app)"),
            "{outside}"
        );
        assert!(outside.contains("--no-manifest"), "{outside}");
        assert!(module_path(Path::new("../sibling/w"), folder).unwrap_err().contains("outside flow.toml's folder"));
        assert!(module_path(Path::new("."), folder).unwrap_err().contains("outside flow.toml's folder"));
        let hyphen = module_path(Path::new("elsewhere-1541/gen"), folder).unwrap_err();
        assert!(hyphen.contains("\"elsewhere-1541\" is not one"), "{hyphen}");
        assert!(hyphen.contains("name the folder like elsewhere_1541"), "{hyphen}");
        assert!(module_path(Path::new("class/w"), folder).unwrap_err().contains("\"class\" is not one"));
        assert!(module_path(Path::new("2fa"), folder).unwrap_err().contains("like _2fa"));
    }

    #[test]
    fn docstrings_hold_any_text() {
        assert_eq!(docstring("a \"\"\" b\\c", 0), "\"\"\"a \"\"\\\" b\\\\c\"\"\"");
        assert_eq!(docstring("ends in \"", 4), "    \"\"\"ends in \\\"\"\"\"");
        assert_eq!(docstring("one\n\ntwo", 4), "    \"\"\"one\n\n    two\n    \"\"\"");
        assert_eq!(string_body("bell\u{7}"), "bell\\x07");
    }

    #[test]
    fn string_literals_hold_quotes_backslashes_and_line_breaks() {
        assert_eq!(string_literal("a\"b\\c\nd\re\u{2028}"), "\"a\\\"b\\\\c\\nd\\re\\u2028\"");
    }
}
