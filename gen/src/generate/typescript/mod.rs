//! `flow-gen --lang typescript`: a TypeScript package of the Tools of a
//! listing, served with `@flow/toolkit`.
//!
//! Files (`@generated` ones are rewritten on every run; scaffolds never):
//! - `src/types.ts`: records as readonly interfaces, enums as discriminated
//!   unions `{ case, value }`, host types as `HostToken`.
//! - `src/interface.ts`: one handler type per Tool (an async function of its
//!   arguments and a call context) with its doc, and the `Implementation`
//!   interface that gathers them.
//! - `src/metadata.ts`: imports `src/flow.tools.json` (the listing) and
//!   `src/describe.json` (each Tool's identity, fingerprint and describe-form
//!   signature) as JSON modules, the Rust crate's files byte for byte; tsc
//!   writes them into dist/ beside the compiled module.
//! - `src/main.ts`: the entry point, `node dist/main.js`, which type-checks
//!   the implementation against the interface and serves it.
//! - scaffolds: `src/implementation.ts` (one stub per Tool, the author's),
//!   `package.json`, `tsconfig.json`.
//!
//! The type mapping is `@flow/toolkit`'s (bindings-node `lib/index.d.ts`).
//! `Option<T>` is `T | undefined`, or the toolkit's `Option<T>` (which turns
//! into `Some<T> | undefined` when T may be undefined) where T as written is
//! an Option or a declaration's type parameter. A Tool's own type parameters
//! are `JsonValue`: their values reach the author as JSON.
//!
//! Names: a declaration keeps its NAME in PascalCase; Tool functions and
//! parameters are camelCase; fields and constructors keep their NAME exactly
//! (they are the wire names; a NAME that is no identifier is quoted). A
//! reserved word, or a name the generated code uses (`Promise`, `Decimal`,
//! ...), gets a trailing `_`; a later equal name in one scope gets `_2`, ...

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use askama::Template;
use flow_core::types::{identity_name, Body, Declarations, Field, Payload, Prim, Term};

use super::{GenInput, Language, Output, DESCRIBE_FILE, LISTING_FILE};
use crate::naming::{camel_case, ordered, pascal_case, render, Lang, Scope, Style};

pub struct TypeScript;

/// Names the generated files use: a declaration spelled like one would hide it.
const USED: &[&str] = &[
    "Array",
    "CallContext",
    "Decimal",
    "Duration",
    "Error",
    "Failed",
    "GenericCallContext",
    "HostToken",
    "Implementation",
    "Instant",
    "JsonValue",
    "Map",
    "Option",
    "Promise",
    "ReadonlyMap",
    "ReadonlySet",
    "ServedMetadata",
    "Set",
    "Some",
    "Uint8Array",
    "implementation",
    "metadata",
    "serve",
    "tools",
];

fn header(input: &GenInput) -> String {
    Lang::TypeScript.header(&input.source)
}

/// A string literal holding `text` exactly (JSON's escapes are JavaScript's).
fn string_literal(text: &str) -> String {
    let mut out = String::new();
    flow_core::json::write_string(&mut out, text);
    // U+2028 and U+2029 are fine in string literals since ES2019, but not
    // in every tool that reads source; spell them out.
    out.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// A property key: the name itself when it is an identifier (reserved words
/// are valid property names), else a string literal.
fn property(name: &str) -> String {
    if Lang::TypeScript.is_identifier(name) {
        name.to_owned()
    } else {
        string_literal(name)
    }
}

/// A doc comment at `indent` spaces, or nothing; `*/` inside cannot end it.
pub fn doc_comment(text: Option<&str>, extra: &[String], indent: usize) -> String {
    let mut paragraphs: Vec<String> = Vec::new();
    if let Some(text) = text {
        if !text.trim().is_empty() {
            paragraphs.push(text.trim_end().to_owned());
        }
    }
    paragraphs.extend(extra.iter().cloned());
    if paragraphs.is_empty() {
        return String::new();
    }
    let pad = " ".repeat(indent);
    let body = paragraphs.join("\n\n").replace("*/", "*\\/").replace('\r', "");
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() == 1 {
        return format!("{pad}/** {} */\n", lines[0]);
    }
    let mut out = format!("{pad}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{pad} *\n"));
        } else {
            out.push_str(&format!("{pad} * {line}\n"));
        }
    }
    out.push_str(&format!("{pad} */\n"));
    out
}

/// The TypeScript names of a listing.
struct Names {
    /// A declaration's type name, by local id.
    types: HashMap<String, String>,
    /// A declaration's type parameters, by local id.
    generics: HashMap<String, Vec<String>>,
    /// Per Tool: its function, its handler type.
    functions: Vec<String>,
    handlers: Vec<String>,
}

fn names(input: &GenInput) -> Names {
    let declarations = &input.listing.declarations;
    let mut module = Scope::new(Style::TypeScript).refer(USED.iter().copied());
    let mut types = HashMap::new();
    for (id, decl) in ordered(declarations) {
        types.insert(id.clone(), module.claim(&pascal_case(&decl.name)));
    }
    let mut functions_scope = Scope::new(Style::TypeScript).refer(USED.iter().copied());
    let mut functions = Vec::new();
    let mut handlers = Vec::new();
    for tool in &input.tools {
        let name = identity_name(&tool.decl.tool);
        functions.push(functions_scope.claim(&camel_case(name)));
        handlers.push(module.claim(&pascal_case(name)));
    }
    let mut generics = HashMap::new();
    for (id, decl) in declarations {
        // A type parameter must not hide a type its declaration's body names.
        let mut scope = Scope::new(Style::TypeScript);
        generics.insert(
            id.clone(),
            decl.generic.iter().map(|g| scope.claim_beside(&pascal_case(g), Some(&module))).collect(),
        );
    }
    Names { types, generics, functions, handlers }
}

/// Writes TypeScript types for terms, and notes what they use: the
/// imports of the file they are written into.
struct Types<'a> {
    declarations: &'a Declarations,
    names: &'a Names,
    toolkit: RefCell<BTreeSet<&'static str>>,
    declared: RefCell<BTreeSet<String>>,
    /// Writing a Tool's parameter or result ([`Types::of_tool`]), where every
    /// Param is the Tool's; elsewhere every Param is its declaration's,
    /// whatever that declaration's local id is called (it may be `tool`).
    in_tool: std::cell::Cell<bool>,
}

impl<'a> Types<'a> {
    fn new(declarations: &'a Declarations, names: &'a Names) -> Types<'a> {
        Types {
            declarations,
            names,
            toolkit: RefCell::default(),
            declared: RefCell::default(),
            in_tool: std::cell::Cell::new(false),
        }
    }

    fn toolkit(&self, name: &'static str) -> Ts {
        self.toolkit.borrow_mut().insert(name);
        Ts::simple(name)
    }

    /// The `import type` lines for what was written: the toolkit's types
    /// (with `extra`), and the package's own from `./types.js`.
    fn imports(&self, extra: &[String]) -> (String, String) {
        let mut toolkit: Vec<String> =
            self.toolkit.borrow().iter().map(|s| s.to_string()).chain(extra.iter().cloned()).collect();
        toolkit.sort();
        toolkit.dedup();
        let declared: Vec<String> = self.declared.borrow().iter().cloned().collect();
        (import_line(&toolkit, "@flow/toolkit"), import_line(&declared, "./types.js"))
    }
}

/// A type expression and whether it must be parenthesized inside `T[]`.
struct Ts {
    text: String,
    compound: bool,
}

impl Ts {
    fn simple(text: impl Into<String>) -> Ts {
        Ts { text: text.into(), compound: false }
    }

    fn element(self) -> String {
        if self.compound {
            format!("({})", self.text)
        } else {
            self.text
        }
    }
}

impl Types<'_> {
    /// A Tool parameter's or result's type.
    fn of_tool(&self, term: &Term) -> Ts {
        let outer = self.in_tool.replace(true);
        let ts = self.of(term);
        self.in_tool.set(outer);
        ts
    }

    fn of(&self, term: &Term) -> Ts {
        let of = |t: &Term| self.of(t);
        match term {
            Term::Prim(p) => match p {
                Prim::Int => Ts::simple("bigint"),
                Prim::Decimal => self.toolkit("Decimal"),
                Prim::Bool => Ts::simple("boolean"),
                Prim::Text => Ts::simple("string"),
                Prim::Bytes => Ts::simple("Uint8Array"),
                Prim::Duration => self.toolkit("Duration"),
                Prim::Instant => self.toolkit("Instant"),
                Prim::Unit => Ts::simple("null"),
                Prim::Never => Ts::simple("never"),
                Prim::JsonValue => self.toolkit("JsonValue"),
            },
            Term::List(t) => Ts { text: format!("readonly {}[]", of(t).element()), compound: true },
            Term::Set(t) => Ts::simple(format!("ReadonlySet<{}>", of(t).text)),
            Term::Dict(k, v) => Ts::simple(format!("ReadonlyMap<{}, {}>", of(k).text, of(v).text)),
            Term::Tuple(items) => {
                let items: Vec<String> = items.iter().map(|t| of(t).text).collect();
                Ts { text: format!("readonly [{}]", items.join(", ")), compound: true }
            }
            Term::Option(t) => {
                let inner = of(t);
                if matches!(**t, Term::Option(_)) || (matches!(&**t, Term::Param { .. }) && !self.in_tool.get()) {
                    self.toolkit("Option");
                    Ts::simple(format!("Option<{}>", inner.text))
                } else {
                    Ts { text: format!("{} | undefined", inner.text), compound: true }
                }
            }
            // No value of these crosses; validation refuses Tools that need one.
            Term::Task(_) | Term::Function { .. } => Ts::simple("never"),
            Term::Named { declaration, args } => {
                let decl = &self.declarations[declaration];
                match decl.body {
                    Body::Host => self.toolkit("HostToken"),
                    Body::Nondata => Ts::simple("never"),
                    _ => {
                        let name = &self.names.types[declaration];
                        self.declared.borrow_mut().insert(name.clone());
                        if args.is_empty() {
                            Ts::simple(name.clone())
                        } else {
                            let args: Vec<String> = args.iter().map(|t| of(t).text).collect();
                            Ts::simple(format!("{name}<{}>", args.join(", ")))
                        }
                    }
                }
            }
            // A Tool's own type parameters: their values reach the author as JSON.
            Term::Param { .. } if self.in_tool.get() => self.toolkit("JsonValue"),
            Term::Param { owner, index } => Ts::simple(self.names.generics[owner][*index].clone()),
        }
    }

    /// The members of a record or named payload, one per line at `indent`.
    fn members(&self, fields: &[Field], indent: usize) -> String {
        let pad = " ".repeat(indent);
        let mut out = String::new();
        for field in fields {
            out.push_str(&doc_comment(field.doc.as_deref(), &[], indent));
            let (optional, ty) = match &field.ty {
                // The Option-field rule: absent is None.
                Term::Option(_) => ("?", self.of(&field.ty).text),
                other => ("", self.of(other).text),
            };
            out.push_str(&format!("{pad}readonly {}{optional}: {ty}\n", property(&field.name)));
        }
        out
    }
}

fn type_params(names: &Names, id: &str) -> String {
    let params = &names.generics[id];
    if params.is_empty() {
        String::new()
    } else {
        format!("<{}>", params.join(", "))
    }
}

#[derive(Template)]
#[template(path = "typescript/record.ts", escape = "none")]
struct RecordTemplate {
    doc: String,
    name: String,
    params: String,
    members: String,
}

struct Variant {
    doc: String,
    /// The constructor's name as a string literal.
    case: String,
    /// The payload's type, or empty for none; `multiline` when it is an
    /// object type written over several lines.
    value: String,
    multiline: bool,
}

#[derive(Template)]
#[template(path = "typescript/enum.ts", escape = "none")]
struct EnumTemplate {
    doc: String,
    name: String,
    params: String,
    variants: Vec<Variant>,
}

#[derive(Template)]
#[template(path = "typescript/alias.ts", escape = "none")]
struct AliasTemplate {
    doc: String,
    name: String,
    params: String,
    target: String,
}

#[derive(Template)]
#[template(path = "typescript/types.ts", escape = "none")]
struct TypesModule {
    header: String,
    project: String,
    imports: String,
    declarations: String,
}

struct Param {
    name: String,
    ty: String,
}

struct Tool {
    doc: String,
    /// The function's name (camelCase) and its handler type's name.
    function: String,
    handler: String,
    params: Vec<Param>,
    context: String,
    returns: String,
}

#[derive(Template)]
#[template(path = "typescript/interface.ts", escape = "none")]
struct InterfaceModule {
    header: String,
    project: String,
    toolkit_imports: String,
    type_imports: String,
    tools: Vec<Tool>,
}

#[derive(Template)]
#[template(path = "typescript/metadata.ts", escape = "none")]
struct MetadataModule {
    header: String,
}

#[derive(Template)]
#[template(path = "typescript/main.ts", escape = "none")]
struct MainModule {
    header: String,
    project: String,
    functions: Vec<String>,
}

#[derive(Template)]
#[template(path = "typescript/implementation.ts", escape = "none")]
struct ImplementationModule {
    project: String,
    toolkit_imports: String,
    type_imports: String,
    tools: Vec<Tool>,
}

#[derive(Template)]
#[template(path = "typescript/package.json", escape = "none")]
struct PackageJson {
    name: String,
    description: String,
    toolkit_version: String,
}

#[derive(Template)]
#[template(path = "typescript/tsconfig.json", escape = "none")]
struct TsConfig {}

fn import_line(names: &[String], from: &str) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!("import type {{ {} }} from {}\n", names.join(", "), string_literal(from))
    }
}

impl TypeScript {
    fn types_module(&self, input: &GenInput, names: &Names) -> Result<String, String> {
        let declarations = &input.listing.declarations;
        let types = Types::new(declarations, names);
        let mut rendered = Vec::new();
        for (id, decl) in ordered(declarations) {
            let doc = doc_comment(decl.doc.as_deref(), &[format!("`{}`", decl.identity)], 0);
            let name = names.types[id].clone();
            let params = type_params(names, id);
            let text = match &decl.body {
                Body::Record { fields } => {
                    render(&RecordTemplate { doc, name, params, members: types.members(fields, 2) })?
                }
                Body::Enum { constructors } => {
                    let variants = constructors
                        .iter()
                        .map(|c| {
                            let (value, multiline) = match &c.payload {
                                None => (String::new(), false),
                                Some(Payload::Positional(parts)) if parts.len() == 1 => {
                                    (types.of(&parts[0]).text, false)
                                }
                                Some(Payload::Positional(parts)) => (types.of(&Term::Tuple(parts.clone())).text, false),
                                Some(Payload::Named(fields)) if fields.is_empty() => ("{}".to_owned(), false),
                                Some(Payload::Named(fields)) => {
                                    (format!("{{\n{}      }}", types.members(fields, 8)), true)
                                }
                            };
                            Variant {
                                doc: doc_comment(c.doc.as_deref(), &[], 2),
                                case: string_literal(&c.name),
                                value,
                                multiline,
                            }
                        })
                        .collect();
                    render(&EnumTemplate { doc, name, params, variants })?
                }
                Body::Host => render(&AliasTemplate {
                    doc: doc_comment(
                        decl.doc.as_deref(),
                        &[format!("`{}`, a host token: handed back unchanged.", decl.identity)],
                        0,
                    ),
                    name,
                    params,
                    target: types.toolkit("HostToken").text,
                })?,
                Body::Nondata => render(&AliasTemplate {
                    doc: doc_comment(
                        decl.doc.as_deref(),
                        &[format!("`{}`, which has no data encoding.", decl.identity)],
                        0,
                    ),
                    name,
                    params,
                    target: "never".to_owned(),
                })?,
            };
            rendered.push(text);
        }
        let declarations = rendered.join("\n");
        let (imports, _) = types.imports(&[]);
        render(&TypesModule { header: header(input), project: input.project.clone(), imports, declarations })
    }

    /// The Tools, their signatures written with `types` (which notes what
    /// the signatures use) and their docs with a Types of their own.
    fn tools(&self, input: &GenInput, types: &Types) -> Vec<Tool> {
        let names = types.names;
        let docs = Types::new(types.declarations, names);
        input
            .tools
            .iter()
            .enumerate()
            .map(|(i, tool)| {
                let decl = tool.decl;
                let mut params_scope = Scope::new(Style::TypeScript).refer(["context"]);
                let params = decl
                    .params
                    .iter()
                    .map(|p| Param { name: params_scope.claim(&camel_case(&p.name)), ty: types.of_tool(&p.ty).text })
                    .collect();
                let err = docs.of_tool(&decl.err).text;
                let mut extra = vec![format!("Tool `{}`, fingerprint `{}`.", decl.tool, tool.fingerprint)];
                // TypeScript does not type `throw`: the doc says what may be
                // thrown, and how to have it checked. Only an object is taken
                // for the declared error when thrown as itself (the runtime
                // never takes a primitive: a stray `throw undefined` is no None).
                match &decl.err {
                    Term::Prim(Prim::Never) => {}
                    Term::Named { .. } | Term::List(_) | Term::Set(_) | Term::Dict(..) | Term::Tuple(_) => extra.push(format!(
                        "To fail with the declared error, `throw error satisfies {err}` (TypeScript checks a thrown value only with `satisfies`) or `throw new Failed<{err}>(error)`."
                    )),
                    _ => extra.push(format!("To fail with the declared error, `throw new Failed<{err}>(error)`.")),
                }
                if decl.is_generic() {
                    extra.push(format!(
                        "Generic in {}: values of a type parameter are JSON; `context` has the call's types and codecs.",
                        decl.generic.join(", ")
                    ));
                }
                Tool {
                    doc: doc_comment(decl.doc.as_deref(), &extra, 0),
                    function: names.functions[i].clone(),
                    handler: names.handlers[i].clone(),
                    params,
                    context: if decl.is_generic() { "GenericCallContext" } else { "CallContext" }.to_owned(),
                    returns: types.of_tool(&decl.ok).text,
                }
            })
            .collect()
    }
}

impl Language for TypeScript {
    fn default_out(&self, input: &GenInput) -> PathBuf {
        PathBuf::from(format!("{}-tools", input.project))
    }

    fn generate(&self, input: &GenInput, _out: &Path) -> Result<Output, String> {
        let names = names(input);
        let mut output = Output::default();
        output.generated("src/types.ts", self.types_module(input, &names)?);

        let signatures = Types::new(&input.listing.declarations, &names);
        let tools = self.tools(input, &signatures);
        let contexts: Vec<String> = tools.iter().map(|t| t.context.clone()).collect();
        let (toolkit_imports, type_imports) = signatures.imports(&contexts);
        output.generated(
            "src/interface.ts",
            render(&InterfaceModule {
                header: header(input),
                project: input.project.clone(),
                toolkit_imports: toolkit_imports.clone(),
                type_imports,
                tools: self.tools(input, &Types::new(&input.listing.declarations, &names)),
            })?,
        );

        output.generated("src/metadata.ts", render(&MetadataModule { header: header(input) })?);
        output.generated(format!("src/{LISTING_FILE}"), input.listing_file());
        output.generated(format!("src/{DESCRIBE_FILE}"), input.describe_file());
        output.generated(
            "src/main.ts",
            render(&MainModule {
                header: header(input),
                project: input.project.clone(),
                functions: names.functions.clone(),
            })?,
        );
        // The scaffold also imports what failing takes: Failed and the
        // declared error types, which the stubs' docs mention.
        let errors: Vec<String> = input
            .listing
            .tools
            .iter()
            .filter(|t| t.err != Term::Prim(Prim::Never))
            .map(|t| signatures.of_tool(&t.err).text)
            .collect();
        let (_, scaffold_types) = signatures.imports(&[]);
        let failed = if errors.is_empty() { "" } else { "import { Failed } from \"@flow/toolkit\"\n" };
        output.scaffold(
            "src/implementation.ts",
            render(&ImplementationModule {
                project: input.project.clone(),
                toolkit_imports: format!("{failed}{toolkit_imports}"),
                type_imports: scaffold_types,
                tools,
            })?,
        );
        output.scaffold(
            "package.json",
            render(&PackageJson {
                name: string_literal(&format!("{}-tools", input.project.to_lowercase())),
                description: string_literal(&format!("The Flow Tools of {}, served with @flow/toolkit", input.project)),
                toolkit_version: string_literal(&format!("^{}", env!("CARGO_PKG_VERSION"))),
            })?,
        );
        output.scaffold("tsconfig.json", render(&TsConfig {})?);
        Ok(output)
    }

    fn serve_command(&self, _input: &GenInput, out: &Path, _folder: &Path) -> Result<String, String> {
        // A relative path is the manifest's folder's, where the command runs.
        let main = out.join("dist").join("main.js").display().to_string();
        let plain = main.chars().all(|c| c.is_ascii_alphanumeric() || "_./-+@:".contains(c));
        if plain {
            Ok(format!("node {main}"))
        } else {
            // flow.toml commands are split like a shell's words.
            Ok(format!("node '{}'", main.replace('\'', "'\\''")))
        }
    }
}
