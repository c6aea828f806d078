//! Rust type expressions for Flow type terms, and the `use` lines a file
//! needs for them.
//!
//! A built-in name (`BTreeSet`, `BigInt`, `Option`, ...) is written short and
//! imported, unless a declaration of the listing takes that name: then it is
//! written as its full path, so a Flow type called `Option` or `Box` neither
//! hides the built-in nor gets renamed.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use flow_core::types::{Body, Declarations, Prim, Term};

use super::analysis::{is_text, mentions_tool_param, Facts};

/// The names generated code takes from std and the runtime (`flow_runtime`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Builtin {
    String,
    Vec,
    Option,
    Result,
    Box,
    BTreeMap,
    BTreeSet,
    Future,
    BigInt,
    BigDecimal,
    Instant,
    Duration,
    Json,
    HostToken,
    Never,
    GenericValue,
    ContextSet,
    ContextDict,
    Call,
}

impl Builtin {
    const ALL: [Builtin; 19] = [
        Builtin::String,
        Builtin::Vec,
        Builtin::Option,
        Builtin::Result,
        Builtin::Box,
        Builtin::BTreeMap,
        Builtin::BTreeSet,
        Builtin::Future,
        Builtin::BigInt,
        Builtin::BigDecimal,
        Builtin::Instant,
        Builtin::Duration,
        Builtin::Json,
        Builtin::HostToken,
        Builtin::Never,
        Builtin::GenericValue,
        Builtin::ContextSet,
        Builtin::ContextDict,
        Builtin::Call,
    ];

    fn short(self) -> &'static str {
        self.path().rsplit("::").next().expect("a path")
    }

    fn path(self) -> &'static str {
        match self {
            Builtin::String => "std::string::String",
            Builtin::Vec => "std::vec::Vec",
            Builtin::Option => "std::option::Option",
            Builtin::Result => "std::result::Result",
            Builtin::Box => "std::boxed::Box",
            Builtin::BTreeMap => "std::collections::BTreeMap",
            Builtin::BTreeSet => "std::collections::BTreeSet",
            Builtin::Future => "std::future::Future",
            Builtin::BigInt => "flow_runtime::codec::BigInt",
            Builtin::BigDecimal => "flow_runtime::codec::BigDecimal",
            Builtin::Instant => "flow_runtime::codec::Instant",
            Builtin::Duration => "flow_runtime::codec::Duration",
            Builtin::Json => "flow_runtime::codec::Json",
            Builtin::HostToken => "flow_runtime::codec::HostToken",
            Builtin::Never => "flow_runtime::codec::Never",
            Builtin::GenericValue => "flow_runtime::codec::GenericValue",
            Builtin::ContextSet => "flow_runtime::codec::ContextSet",
            Builtin::ContextDict => "flow_runtime::codec::ContextDict",
            Builtin::Call => "flow_runtime::Call",
        }
    }

    /// In Rust's prelude: never imported.
    fn prelude(self) -> bool {
        matches!(self, Builtin::String | Builtin::Vec | Builtin::Option | Builtin::Result | Builtin::Box)
    }
}

/// The names of one generated file, and what it used.
pub struct FileScope {
    /// Names a built-in must not take: every declaration's Rust name, and
    /// the file's own items.
    taken: BTreeSet<String>,
    /// The file's own items (a declaration with one of these names is written
    /// with its module path).
    locals: BTreeSet<String>,
    /// Where declarations are imported from; `None` in the file that defines them.
    types_module: Option<String>,
    builtins: RefCell<BTreeSet<Builtin>>,
    types: RefCell<BTreeSet<String>>,
}

impl FileScope {
    /// `type_names`: every declaration's Rust name; `locals`: the file's own
    /// items; `types_module`: the path declarations are imported from.
    pub fn new<'n>(
        type_names: impl IntoIterator<Item = &'n String>,
        locals: &[&str],
        types_module: Option<&str>,
    ) -> FileScope {
        let locals: BTreeSet<String> = locals.iter().map(|s| s.to_string()).collect();
        let mut taken: BTreeSet<String> = type_names.into_iter().cloned().collect();
        taken.extend(locals.iter().cloned());
        FileScope {
            taken,
            locals,
            types_module: types_module.map(str::to_owned),
            builtins: RefCell::default(),
            types: RefCell::default(),
        }
    }

    /// The short names of every built-in.
    pub fn builtin_names() -> Vec<&'static str> {
        Builtin::ALL.iter().map(|b| b.short()).collect()
    }

    /// A built-in, short when no declaration or local takes its name.
    pub fn builtin(&self, builtin: Builtin) -> String {
        if self.taken.contains(builtin.short()) {
            return builtin.path().to_owned();
        }
        if !builtin.prelude() {
            self.builtins.borrow_mut().insert(builtin);
        }
        builtin.short().to_owned()
    }

    /// A declaration's Rust name as this file writes it.
    pub fn declared(&self, name: &str) -> String {
        match &self.types_module {
            None => name.to_owned(),
            Some(module) if self.locals.contains(name) => format!("{module}::{name}"),
            Some(_) => {
                self.types.borrow_mut().insert(name.to_owned());
                name.to_owned()
            }
        }
    }

    /// Runs `render`; when it fails, forgets what it used, so that a type
    /// written in its place leaves no unused import behind.
    pub fn or_forget<T>(&self, render: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        let (builtins, types) = (self.builtins.borrow().clone(), self.types.borrow().clone());
        let rendered = render();
        if rendered.is_err() {
            *self.builtins.borrow_mut() = builtins;
            *self.types.borrow_mut() = types;
        }
        rendered
    }

    /// The `use` lines for what was used, in groups (std, flow-runtime, the
    /// package's own items with `extra`) separated by blank lines, each sorted.
    pub fn imports(&self, extra: &[String]) -> String {
        let mut groups: Vec<Vec<String>> = Vec::new();
        let builtins = self.builtins.borrow();
        for root in ["std", "flow_runtime"] {
            let mut modules: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for b in builtins.iter().filter(|b| b.path().starts_with(&format!("{root}::"))) {
                let (module, name) = b.path().rsplit_once("::").expect("a path");
                modules.entry(module).or_default().push(name);
            }
            modules.values_mut().for_each(|names| names.sort_unstable_by(|a, b| super::layout::name_order(a, b)));
            // In rustfmt's order: a module's own names after its submodules'
            // (`flow_runtime::codec::{..}` before `flow_runtime::Call`).
            let mut lines: Vec<String> = modules.into_iter().map(|(module, names)| use_line(module, &names)).collect();
            lines.sort_by(|a, b| super::layout::use_order(a, b));
            groups.push(lines);
        }
        let mut own: Vec<String> = extra.to_vec();
        if let Some(module) = &self.types_module {
            let types = self.types.borrow();
            if !types.is_empty() {
                let mut names: Vec<&str> = types.iter().map(String::as_str).collect();
                names.sort_unstable_by(|a, b| super::layout::name_order(a, b));
                own.push(use_line(module, &names));
            }
        }
        own.sort_by(|a, b| super::layout::use_order(a, b));
        groups.push(own);
        groups.retain(|g| !g.is_empty());
        groups.iter().map(|g| g.join("\n")).collect::<Vec<_>>().join("\n\n")
    }
}

/// A `use` line; a list too long for one line fills lines of its own, as
/// rustfmt's mixed layout does.
fn use_line(module: &str, names: &[&str]) -> String {
    let one_line = match names {
        [one] => format!("use {module}::{one};"),
        many => format!("use {module}::{{{}}};", many.join(", ")),
    };
    if one_line.len() <= super::layout::MAX_WIDTH {
        return one_line;
    }
    let mut out = format!("use {module}::{{\n");
    let mut line = String::new();
    for name in names {
        if !line.is_empty() && 4 + line.len() + 1 + name.len() + 1 > super::layout::MAX_WIDTH {
            out.push_str(&format!("    {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(name);
        line.push(',');
    }
    out.push_str(&format!("    {line}\n}};"));
    out
}

/// Where a term is: in a declaration's members, or at a Tool's root.
#[derive(Debug, Clone, Copy)]
pub enum Place<'a> {
    /// A field or payload part of declaration `owner` (its own parameters
    /// are Rust type parameters; a member holding `owner` inline is boxed).
    Member { owner: &'a str },
    /// A Tool parameter or result; `generic` when the Tool has type
    /// parameters, whose values are JSON.
    Root { generic: bool },
}

/// Turns terms into Rust types.
pub struct Terms<'a> {
    pub facts: &'a Facts<'a>,
    pub declarations: &'a Declarations,
    /// Each generated declaration's Rust name, by local id.
    pub type_names: &'a BTreeMap<String, String>,
    /// Each declaration's Rust type parameter names (for used parameters).
    pub param_names: &'a BTreeMap<String, Vec<String>>,
}

/// Rust implements `Ord` and `Debug` for tuples of at most 12 items.
const MAX_TUPLE: usize = 12;

impl Terms<'_> {
    pub fn render(&self, term: &Term, place: Place, scope: &FileScope) -> Result<String, String> {
        self.term(term, place, scope, true)
    }

    /// `inline`: the value sits in its container (not behind a Vec, set or map).
    fn term(&self, term: &Term, place: Place, scope: &FileScope, inline: bool) -> Result<String, String> {
        let generic_root = matches!(place, Place::Root { generic: true });
        Ok(match term {
            Term::Prim(p) => self.prim(*p, scope),
            Term::List(t) => format!("{}<{}>", scope.builtin(Builtin::Vec), self.term(t, place, scope, false)?),
            Term::Set(t) => {
                let item = self.term(t, place, scope, false)?;
                if generic_root && mentions_tool_param(t) {
                    format!("{}<{item}>", scope.builtin(Builtin::ContextSet))
                } else {
                    format!("{}<{item}>", scope.builtin(Builtin::BTreeSet))
                }
            }
            Term::Option(t) => format!("{}<{}>", scope.builtin(Builtin::Option), self.term(t, place, scope, inline)?),
            Term::Dict(k, v) => {
                let key = self.term(k, place, scope, false)?;
                let value = self.term(v, place, scope, false)?;
                if !is_text(k) && generic_root && mentions_tool_param(k) {
                    format!("{}<{key}, {value}>", scope.builtin(Builtin::ContextDict))
                } else {
                    format!("{}<{key}, {value}>", scope.builtin(Builtin::BTreeMap))
                }
            }
            Term::Tuple(items) if items.len() > MAX_TUPLE => {
                return Err(format!(
                    "a tuple of {} items: Rust orders and prints tuples of at most {MAX_TUPLE}",
                    items.len()
                ))
            }
            Term::Tuple(items) => {
                let items = items.iter().map(|t| self.term(t, place, scope, inline)).collect::<Result<Vec<_>, _>>()?;
                format!("({})", items.join(", "))
            }
            Term::Named { declaration, args } => return self.named(term, declaration, args, place, scope, inline),
            // At a root every Param is the Tool's, in a member its owner's,
            // whatever the owner's local id is called (a declaration's may be
            // `tool`).
            Term::Param { .. } if matches!(place, Place::Root { .. }) => scope.builtin(Builtin::GenericValue),
            Term::Param { owner, index } => self
                .param_names
                .get(owner)
                .and_then(|names| names.get(*index))
                .cloned()
                .ok_or_else(|| format!("type parameter {index} of {owner:?} has no Rust name"))?,
            Term::Function { .. } => return Err("a function has no encoding, so it cannot cross".to_owned()),
            Term::Task(_) => return Err("a Task has no encoding, so it cannot cross".to_owned()),
        })
    }

    fn prim(&self, prim: Prim, scope: &FileScope) -> String {
        match prim {
            Prim::Int => scope.builtin(Builtin::BigInt),
            Prim::Decimal => scope.builtin(Builtin::BigDecimal),
            Prim::Bool => "bool".to_owned(),
            Prim::Text => scope.builtin(Builtin::String),
            Prim::Bytes => format!("{}<u8>", scope.builtin(Builtin::Vec)),
            Prim::Duration => scope.builtin(Builtin::Duration),
            Prim::Instant => scope.builtin(Builtin::Instant),
            Prim::Unit => "()".to_owned(),
            Prim::Never => scope.builtin(Builtin::Never),
            Prim::JsonValue => scope.builtin(Builtin::Json),
        }
    }

    fn named(
        &self,
        term: &Term,
        declaration: &str,
        args: &[Term],
        place: Place,
        scope: &FileScope,
        inline: bool,
    ) -> Result<String, String> {
        let template = &self.declarations[declaration];
        if matches!(template.body, Body::Nondata) {
            return Err(format!("{} is a nondata type, which has no encoding, so it cannot cross", template.identity));
        }
        let name = self
            .type_names
            .get(declaration)
            .ok_or_else(|| format!("{} has no generated Rust type", template.identity))?;
        let mut rendered = Vec::new();
        // The declaration keeps an argument in a set or as a key: a generic
        // Tool's JSON values there have no Rust order, so the whole value
        // reaches the author as JSON, with the call's codec for its order.
        // (Anything else placed there has an order: the shared front refuses
        // a type that cannot cross.) Decided before any argument is written,
        // so that none leaves an import behind.
        let generic_root = matches!(place, Place::Root { generic: true });
        if generic_root
            && args.iter().enumerate().any(|(j, arg)| {
                self.facts.used(declaration, j) && self.facts.needs_ord(declaration, j) && mentions_tool_param(arg)
            })
        {
            return Ok(scope.builtin(Builtin::GenericValue));
        }
        for (j, arg) in args.iter().enumerate() {
            if !self.facts.used(declaration, j) {
                // No value holds this argument: it only marks the type
                // (`PhantomData`, bounding nothing), so Flow lets it be
                // anything, even what has no encoding: that is marked `Never`
                // (as TypeScript marks it `never`).
                let marked = scope.or_forget(|| self.term(arg, place, scope, false));
                rendered.push(marked.unwrap_or_else(|_| scope.builtin(Builtin::Never)));
                continue;
            }
            rendered.push(self.term(arg, place, scope, false)?);
        }
        let mut text = scope.declared(name);
        if !rendered.is_empty() {
            text = format!("{text}<{}>", rendered.join(", "));
        }
        if let Place::Member { owner } = place {
            if inline && self.facts.holds_owner_inline(owner, term) {
                text = format!("{}<{text}>", scope.builtin(Builtin::Box));
            }
        }
        Ok(text)
    }
}
