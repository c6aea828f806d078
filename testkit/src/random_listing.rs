//! Random valid tools listings with hostile names, for the generators'
//! property test (`flow-genprop`): every listing here passes validation, and
//! each is made to trip a generator that allocates names carelessly.
//!
//! What the names are drawn from: keywords, builtins and soft keywords of
//! Python, TypeScript and Rust; names the generated packages use themselves;
//! names equal after case folding, NFKC or a generator's mangling; unicode
//! identifiers; NAMEs holding quotes, backslashes and line breaks. Fields
//! are named like the declarations in scope and like their own type
//! parameters; type parameters are named like types, like each other after
//! mangling, and some are unused. Docs hold comment closers and template
//! syntax.
//!
//! And what no line of a generated file may assume it stays within: enums of
//! 50 to 80 constructors (a union longer than any line), names of up to
//! about 250 characters and docs of thousands, with words longer than a
//! line; local ids that are `tool` (whose type parameters a Param owns as
//! `tool`, as a Tool's are), tool names, parameter names and reserved words;
//! generic arguments nested six deep.
//!
//! A listing may also hold a type that cannot cross (decisions.md section 3:
//! a Set of a host token, a Dict keyed by one, a Function, a Task, a nondata
//! type): [`RandomListing::cannot_cross`] says so, and every generator must
//! refuse it.

use std::collections::BTreeMap;

use flow_core::types::parse::DATA_VERSION;
use flow_core::types::*;

use crate::Rng;

/// The listing's file: each seed's repository is its own (`p<seed>`), so
/// that the packages of many listings can be checked side by side.
fn file(seed: u64) -> String {
    format!("github.com/example/p{seed}@0.1.0/h.flow")
}

/// Keywords, soft keywords and builtins of the three languages, and the
/// names generated packages take for themselves.
pub const HOSTILE_NAMES: &[&str] = &[
    // Python keywords, soft keywords, builtins and generated names.
    "class",
    "def",
    "None",
    "True",
    "False",
    "lambda",
    "from",
    "import",
    "async",
    "await",
    "yield",
    "global",
    "nonlocal",
    "match",
    "case",
    "type",
    "_",
    "int",
    "str",
    "list",
    "dict",
    "set",
    "tuple",
    "object",
    "bytes",
    "bool",
    "print",
    "len",
    "typing",
    "dataclasses",
    "decimal",
    "flow_toolkit",
    "models",
    "metadata",
    "tools",
    "abc",
    "annotations",
    "Exception",
    "BaseException",
    "ValueError",
    "args",
    "with_traceback",
    "add_note",
    "__init__",
    "__slots__",
    "__dict__",
    "__class__",
    "_flow_index",
    "self",
    "ctx",
    "cls",
    "super",
    "TypeVar",
    "Generic",
    "Any",
    "Never",
    "Some",
    "FlowSet",
    "FlowMap",
    // TypeScript / JavaScript reserved words, contextual keywords and globals.
    "function",
    "var",
    "let",
    "const",
    "enum",
    "interface",
    "implements",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "delete",
    "new",
    "this",
    "typeof",
    "void",
    "undefined",
    "null",
    "any",
    "unknown",
    "never",
    "string",
    "number",
    "bigint",
    "boolean",
    "symbol",
    "keyof",
    "infer",
    "satisfies",
    "declare",
    "namespace",
    "module",
    "require",
    "Array",
    "Promise",
    "Map",
    "Set",
    "Object",
    "Function",
    "Symbol",
    "JSON",
    "Math",
    "Date",
    "Error",
    "Record",
    "Partial",
    "Readonly",
    "ReadonlyMap",
    "ReadonlySet",
    "Uint8Array",
    "globalThis",
    "constructor",
    "__proto__",
    "prototype",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "arguments",
    "eval",
    "context",
    "CallContext",
    "GenericCallContext",
    "Failed",
    "HostToken",
    "JsonValue",
    "Decimal",
    "Duration",
    "Instant",
    "Option",
    "serve",
    "implementation",
    "Implementation",
    // Rust keywords, prelude and std names, derives, and generated names.
    "fn",
    "impl",
    "mod",
    "crate",
    "Self",
    "struct",
    "trait",
    "where",
    "dyn",
    "ref",
    "mut",
    "move",
    "unsafe",
    "extern",
    "use",
    "loop",
    "box",
    "gen",
    "try",
    "union",
    "macro_rules",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "BTreeMap",
    "BTreeSet",
    "BigInt",
    "BigDecimal",
    "Json",
    "GenericValue",
    "ContextSet",
    "ContextDict",
    "Call",
    "PhantomData",
    "Send",
    "Sync",
    "Clone",
    "Debug",
    "Default",
    "Eq",
    "Ord",
    "Hash",
    "PartialEq",
    "PartialOrd",
    "Copy",
    "Sized",
    "Drop",
    "Fn",
    "Iterator",
    "From",
    "Into",
    "Future",
    "i32",
    "u8",
    "char",
    "f64",
    "usize",
    "std",
    "core",
    "alloc",
    "flow",
    "flow_runtime",
    "codec",
    "types",
    "main",
    "lib",
    "describe",
    "server",
    "Tools",
    "Handler",
    "FromValue",
    "IntoValue",
    "value",
    "T",
    "A",
    "B",
];

/// Names that are equal after case folding, NFKC or mangling, in groups.
pub const TWIN_NAMES: &[&[&str]] = &[
    &["Foo", "foo", "FOO", "fOO", "foo_", "_foo", "Foo_", "Foo2", "Foo_2", "foo_2"],
    &["foo-bar", "foo_bar", "fooBar", "FooBar", "foo bar", "FOO_BAR", "foo__bar"],
    // NFKC: the ligature, fullwidth letters, the Kelvin sign, script H.
    &["file", "\u{FB01}le", "\u{FF21}", "A", "a", "\u{212A}", "K", "k", "\u{210C}", "H"],
    // Mangled non-ASCII against its mangling.
    &["\u{E9}", "u00E9", "U00E9", "u00e9", "\u{C9}"],
    &["2fa", "_2fa", "2FA"],
    &["x1", "X1", "x_1", "X_1", "x1_"],
];

/// Unicode identifiers and NAMEs that no language takes as they are.
pub const UNICODE_NAMES: &[&str] = &[
    "Z\u{FC}rich",
    "\u{65E5}\u{672C}",
    "\u{3A9}mega",
    "\u{F1}and\u{FA}",
    "stra\u{DF}e",
    "\u{1C5}ungla",
    "na\u{EF}ve",
    "\u{1F600}",
    "\u{661}\u{662}",
];

/// NAMEs holding what breaks string literals and comments.
pub const ESCAPE_NAMES: &[&str] = &[
    "a\"b",
    "a\\b",
    "a\nb",
    "it's",
    "x\r\ny",
    "`tick`",
    "${x}",
    "{{x}}",
    "*\\",
    "\"\"\"",
    "<T>",
    "a,b",
    "#x",
    "a\u{2028}b",
    "tab\there",
    "nul\u{1}",
    "end\\",
];

/// Docs that hold comment closers, docstring quotes and template syntax.
pub const HOSTILE_DOCS: &[&str] = &[
    "ends */ here\nconst x: number = \"a comment ended early\"",
    "\"\"\"\nimport os\n\"\"\"",
    "a trailing quote \"",
    "a trailing backslash \\",
    "{{ name }} {% if x %}{% endif %} {# c #} ${x} `tick`",
    "line\r\nbreaks\rand\u{2028}separators\u{2029}",
    "#[attr] /* nested */ // line \n```\nfn main() { panic!() }\n```",
    "bidi \u{202E} reversed \u{2066} isolate",
    "*\\/ and *\\\\/ and **/",
];

/// A random listing and whether it holds a type that cannot cross.
pub struct RandomListing {
    pub listing: Listing,
    /// Every generator must refuse this listing.
    pub cannot_cross: bool,
}

/// Draws names for one listing; `used` keeps NAMEs of one namespace unique
/// where the listing requires it.
struct Names<'r> {
    rng: &'r mut Rng,
}

impl Names<'_> {
    /// A hostile NAME of any kind.
    fn any(&mut self) -> String {
        loop {
            let name = self.draw();
            if is_name(&name) {
                return name;
            }
        }
    }

    fn draw(&mut self) -> String {
        match self.rng.below(21) {
            0..=9 => self.rng.pick(HOSTILE_NAMES).to_owned(),
            10..=13 => {
                let group = self.rng.pick(TWIN_NAMES);
                self.rng.pick(group).to_owned()
            }
            14 | 15 => self.rng.pick(UNICODE_NAMES).to_owned(),
            16 | 17 => self.rng.pick(ESCAPE_NAMES).to_owned(),
            18 => self.long(),
            _ => format!("n{}", self.rng.below(5)),
        }
    }

    /// A name of 60 to about 250 characters, built on a hostile one.
    fn long(&mut self) -> String {
        let base = self.rng.pick(HOSTILE_NAMES);
        let part = self.rng.pick(&["_very_long_name", "AndAnotherPart", "x", "\u{E9}t\u{E9}"]);
        let mut name = base.to_owned();
        let length = 60 + self.rng.below(190) as usize;
        while name.chars().count() < length {
            name.push_str(part);
        }
        name
    }

    /// `count` distinct names, some of them `preferred` (twins of one group,
    /// names of types in scope), none in `avoid`.
    fn distinct(&mut self, count: usize, preferred: &[String], avoid: &[&str]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // One group of twins, so that mangling collides within the scope.
        let group = self.rng.pick(TWIN_NAMES);
        let mut tries = 0;
        while out.len() < count && tries < 200 {
            tries += 1;
            let name = match self.rng.below(4) {
                0 if !preferred.is_empty() => preferred[self.rng.below(preferred.len() as u64) as usize].clone(),
                1 => self.rng.pick(group).to_owned(),
                _ => self.any(),
            };
            if !out.contains(&name) && !avoid.contains(&name.as_str()) {
                out.push(name);
            }
        }
        out
    }

    fn doc(&mut self) -> Option<String> {
        match self.rng.below(7) {
            0 | 1 => None,
            2 | 3 => Some(self.rng.pick(HOSTILE_DOCS).to_owned()),
            4 => Some(long_doc(self.rng)),
            _ => Some("plain words".to_owned()),
        }
    }
}

/// A doc of hundreds to thousands of characters: words and hostile docs,
/// and words longer than any line, which no layout can break.
fn long_doc(rng: &mut Rng) -> String {
    let mut doc = String::new();
    for _ in 0..20 + rng.below(300) {
        let word = match rng.below(12) {
            0 => "a".repeat(100 + rng.below(150) as usize),
            1 => rng.pick(HOSTILE_DOCS).to_owned(),
            2 => rng.pick(ESCAPE_NAMES).to_owned(),
            3 => "\n".to_owned(),
            _ => rng.pick(&["the", "value", "of", "a", "call", "```", "\"\"\"", "*/", "{{", "%}", "#"]).to_owned(),
        };
        doc.push_str(&word);
        doc.push(' ');
    }
    doc
}

/// A local id for declaration `n`: its number mostly, else `tool` (the
/// owner a Tool's Params name), a reserved word, a generated name or a
/// parameter's name, unique in the listing and never all digits (the
/// numbers are the others').
fn local_id(rng: &mut Rng, n: usize, taken: &[String]) -> String {
    let id = match rng.below(10) {
        0 | 1 => TOOL_OWNER.to_owned(),
        2 | 3 => rng.pick(HOSTILE_NAMES).to_owned(),
        4 => rng.pick(ESCAPE_NAMES).to_owned(),
        5 => rng.pick(&["get_forecast", "echo", "Self", "self", "T", "value", "ctx", "context", "args"]).to_owned(),
        _ => n.to_string(),
    };
    if taken.contains(&id) || (id != n.to_string() && id.chars().all(|c| c.is_ascii_digit())) {
        n.to_string()
    } else {
        id
    }
}

/// What a term may refer to where it is drawn.
struct Scope<'s> {
    /// Declarations it may name: local id, number of type parameters, host.
    earlier: &'s [(String, usize, bool)],
    /// What values do with each earlier declaration's type parameters.
    uses: &'s Uses,
    /// The type parameters in scope: their owner and count.
    params: Option<(&'s str, usize)>,
    /// Inside a Set element or a Dict key: no host token may be reached.
    keyed: bool,
}

fn prim(rng: &mut Rng) -> Term {
    const PRIMS: [Prim; 8] =
        [Prim::Int, Prim::Decimal, Prim::Bool, Prim::Text, Prim::Bytes, Prim::Duration, Prim::Instant, Prim::JsonValue];
    Term::Prim(rng.pick(&PRIMS))
}

/// Declarations whose values hold a host token, by local id (a declaration
/// holds one when any member reaches one).
type Hosting = BTreeMap<String, bool>;

/// For each declaration, by local id and then parameter: whether a value
/// holds the parameter (an unused one is only a nominal mark, which may be
/// anything, even a function), and whether the declaration orders it (puts
/// it in a Set or a Dict key, so its argument must have an order).
#[derive(Default)]
struct Uses {
    used: BTreeMap<String, Vec<bool>>,
    ordered: BTreeMap<String, Vec<bool>>,
}

impl Uses {
    fn used(&self, id: &str, index: usize) -> bool {
        self.used.get(id).and_then(|u| u.get(index)).copied().unwrap_or(true)
    }

    fn ordered(&self, id: &str, index: usize) -> bool {
        self.ordered.get(id).and_then(|u| u.get(index)).copied().unwrap_or(false)
    }

    /// Records what declaration `id`'s members do with its `count`
    /// parameters: a fixpoint, since a member may name `id` itself.
    fn learn(&mut self, id: &str, count: usize, members: &[&Term]) {
        self.used.insert(id.to_owned(), vec![false; count]);
        self.ordered.insert(id.to_owned(), vec![false; count]);
        loop {
            let (mut used, mut ordered) = (vec![false; count], vec![false; count]);
            for term in members {
                self.mark(id, term, false, &mut used, &mut ordered);
            }
            if self.used[id] == used && self.ordered[id] == ordered {
                return;
            }
            self.used.insert(id.to_owned(), used);
            self.ordered.insert(id.to_owned(), ordered);
        }
    }

    fn mark(&self, id: &str, term: &Term, keyed: bool, used: &mut [bool], ordered: &mut [bool]) {
        match term {
            Term::Param { owner, index } if owner == id => {
                used[*index] = true;
                ordered[*index] |= keyed;
            }
            Term::List(t) | Term::Option(t) => self.mark(id, t, keyed, used, ordered),
            Term::Set(t) => self.mark(id, t, true, used, ordered),
            Term::Dict(k, v) => {
                self.mark(id, k, true, used, ordered);
                self.mark(id, v, keyed, used, ordered);
            }
            Term::Tuple(items) => items.iter().for_each(|t| self.mark(id, t, keyed, used, ordered)),
            Term::Named { declaration, args } => {
                for (j, arg) in args.iter().enumerate() {
                    if self.used(declaration, j) {
                        self.mark(id, arg, keyed || self.ordered(declaration, j), used, ordered);
                    }
                }
            }
            _ => {}
        }
    }
}

fn term(rng: &mut Rng, depth: u32, scope: &Scope, hosting: &Hosting) -> Term {
    let leaf = depth == 0 || rng.chance(35);
    if leaf {
        if let Some((owner, count)) = scope.params.filter(|(_, n)| *n > 0 && rng.chance(35)) {
            // A declaration's parameter may be ordered (its arguments then
            // must be: Rust bounds it by `Ord`); a generic Tool's may be
            // too, now and then, its JSON values ordered by the call's codec.
            if !scope.keyed || owner != TOOL_OWNER || rng.chance(25) {
                return Term::Param { owner: owner.to_owned(), index: rng.below(count as u64) as usize };
            }
        }
        let candidates: Vec<&(String, usize, bool)> = scope
            .earlier
            .iter()
            .filter(|(id, _, _)| !scope.keyed || !hosting.get(id).copied().unwrap_or(false))
            .collect();
        if !candidates.is_empty() && rng.chance(55) {
            let (id, count, _) = candidates[rng.below(candidates.len() as u64) as usize];
            // Arguments are one level shallower; at the bottom, primitives.
            let args = if depth == 0 {
                (0..*count).map(|_| prim(rng)).collect()
            } else {
                args(rng, id, *count, depth - 1, scope, hosting)
            };
            return Term::Named { declaration: id.clone(), args };
        }
        return prim(rng);
    }
    let d = depth - 1;
    let keyed = Scope { keyed: true, ..*scope };
    match rng.below(9) {
        0 => Term::List(Box::new(term(rng, d, scope, hosting))),
        1 => Term::Set(Box::new(term(rng, d, &keyed, hosting))),
        2 => Term::Option(Box::new(term(rng, d, scope, hosting))),
        3 => Term::Option(Box::new(Term::Option(Box::new(term(rng, d, scope, hosting))))),
        4 => Term::Dict(Box::new(Term::Prim(Prim::Text)), Box::new(term(rng, d, scope, hosting))),
        5 => Term::Dict(Box::new(term(rng, d, &keyed, hosting)), Box::new(term(rng, d, scope, hosting))),
        6 => Term::Tuple((0..2 + rng.below(2)).map(|_| term(rng, d, scope, hosting)).collect()),
        7 => Term::Prim(Prim::Unit),
        _ => prim(rng),
    }
}

/// Arguments for declaration `id`'s `count` parameters. One it orders must
/// have an order; one no value holds is only a mark: anything, even a
/// function, or a host token inside a Set element.
fn args(rng: &mut Rng, id: &str, count: usize, depth: u32, scope: &Scope, hosting: &Hosting) -> Vec<Term> {
    (0..count)
        .map(|j| {
            if !scope.uses.used(id, j) {
                if rng.chance(25) {
                    return phantom_only(rng);
                }
                return term(rng, depth, &Scope { keyed: false, ..*scope }, hosting);
            }
            term(rng, depth, &Scope { keyed: scope.keyed || scope.uses.ordered(id, j), ..*scope }, hosting)
        })
        .collect()
}

/// A term with no encoding, which crosses only as an argument no value
/// holds (`host-boundary.md`: an unused nominal argument is no value).
fn phantom_only(rng: &mut Rng) -> Term {
    if rng.chance(50) {
        Term::Function { params: vec![Term::Prim(Prim::Int)], result: Box::new(Term::Prim(Prim::Text)) }
    } else {
        Term::Task(Box::new(Term::Prim(Prim::Bool)))
    }
}

/// Whether values of `term` can hold a host token: through value positions,
/// and through the arguments a declaration's values hold.
fn reaches_host(term: &Term, declarations: &Declarations, hosting: &Hosting, uses: &Uses) -> bool {
    match term {
        Term::List(t) | Term::Set(t) | Term::Option(t) => reaches_host(t, declarations, hosting, uses),
        Term::Dict(k, v) => {
            reaches_host(k, declarations, hosting, uses) || reaches_host(v, declarations, hosting, uses)
        }
        Term::Tuple(items) => items.iter().any(|t| reaches_host(t, declarations, hosting, uses)),
        Term::Named { declaration, args } => {
            hosting.get(declaration).copied().unwrap_or(false)
                || matches!(declarations.get(declaration).map(|d| &d.body), Some(Body::Host))
                || args
                    .iter()
                    .enumerate()
                    .any(|(j, a)| uses.used(declaration, j) && reaches_host(a, declarations, hosting, uses))
        }
        _ => false,
    }
}

/// A term that cannot cross, of kind `kind` (0 to 5), for a Tool
/// parameter: kinds 0, 1 and 5 name the token `token`, kind 4 the nondata
/// type `nondata`.
fn uncrossable(kind: u64, token: &str, nondata: &str) -> Term {
    let token = || Term::Named { declaration: token.to_owned(), args: vec![] };
    match kind {
        0 => Term::Set(Box::new(token())),
        1 => Term::Dict(Box::new(token()), Box::new(Term::Prim(Prim::Int))),
        2 => Term::List(Box::new(Term::Function {
            params: vec![Term::Prim(Prim::Int)],
            result: Box::new(Term::Prim(Prim::Text)),
        })),
        3 => Term::Option(Box::new(Term::Task(Box::new(Term::Prim(Prim::Int))))),
        4 => Term::Named { declaration: nondata.to_owned(), args: vec![] },
        _ => Term::Set(Box::new(Term::Tuple(vec![Term::Prim(Prim::Int), token()]))),
    }
}

fn template(file: &str, id: usize, name: &str, generic: Vec<String>, body: Body, doc: Option<String>) -> Template {
    Template {
        name: name.to_owned(),
        identity: format!("{file}.{name}"),
        lexical_ordinal: id as u64,
        generic,
        opaque: false,
        doc,
        body,
    }
}

/// A NAME is non-empty text without `.`, `/` or `@`.
fn is_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['.', '/', '@'])
}

/// One random valid listing.
pub fn random_listing(seed: u64) -> RandomListing {
    // Mixed first: `Rng` ignores the seed's lowest bit, and neighbouring
    // seeds should give unrelated listings.
    let mut rng = Rng::new(splitmix(seed));
    let file = file(seed);
    let cannot_cross = rng.chance(8);
    let mut declarations: Declarations = BTreeMap::new();
    let mut hosting: Hosting = BTreeMap::new();
    let mut uses = Uses::default();
    let mut earlier: Vec<(String, usize, bool)> = Vec::new();
    let mut type_names: Vec<String> = Vec::new();

    let count = 2 + rng.below(7) as usize;
    let decl_names = Names { rng: &mut rng }.distinct(count, &[], &[]);
    for (i, name) in decl_names.iter().enumerate() {
        let id = i + 1;
        let taken: Vec<String> = earlier.iter().map(|(id, _, _)| id.clone()).collect();
        let local = local_id(&mut rng, id, &taken);
        let kind = rng.below(20);
        let generic_count = match kind {
            // `tool`'s own Params read like a Tool's: it owns some.
            _ if kind < 17 && local == TOOL_OWNER => 1 + rng.below(3) as usize,
            _ if kind < 17 => rng.below(4) as usize,
            _ => 0,
        };
        // Now and then generic arguments nested six deep.
        let depth = if rng.chance(10) { 6 } else { 2 };
        // Type parameters named like the declarations, like each other
        // after mangling, and never like a primitive (validation refuses it).
        let generic = Names { rng: &mut rng }.distinct(
            generic_count,
            &type_names.iter().cloned().chain([name.clone()]).collect::<Vec<_>>(),
            &["Int", "Decimal", "Bool", "Text", "Bytes", "Duration", "Instant", "Unit", "Never", "json.Value"],
        );
        let scope = Scope { earlier: &earlier, uses: &uses, params: Some((&local, generic.len())), keyed: false };
        let preferred: Vec<String> =
            type_names.iter().cloned().chain(generic.iter().cloned()).chain([name.clone()]).collect();
        let body = if kind < 10 {
            let field_count = rng.below(5) as usize;
            let field_names = Names { rng: &mut rng }.distinct(field_count, &preferred, &[]);
            let mut fields: Vec<Field> = Vec::new();
            for field_name in field_names {
                let ty = term(&mut rng, depth, &scope, &hosting);
                let doc = Names { rng: &mut rng }.doc();
                fields.push(Field { name: field_name, ty, doc });
            }
            // Recursion through a List at the same arguments.
            if rng.chance(20) {
                let args = (0..generic.len()).map(|index| Term::Param { owner: local.clone(), index }).collect();
                let name = Names { rng: &mut rng }.distinct(
                    1,
                    &preferred,
                    &fields.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
                );
                if let Some(name) = name.into_iter().next() {
                    fields.push(Field {
                        name,
                        ty: Term::List(Box::new(Term::Named { declaration: local.clone(), args })),
                        doc: None,
                    });
                }
            }
            Body::Record { fields }
        } else if kind < 17 {
            // One enum in eight has 50 to 80 constructors: its union is
            // longer than any line.
            let many = rng.chance(12);
            let ctor_count = if many { 50 + rng.below(31) as usize } else { 1 + rng.below(4) as usize };
            let mut ctor_names = Names { rng: &mut rng }.distinct(ctor_count, &preferred, &[]);
            let mut n = 0;
            while ctor_names.len() < ctor_count {
                let base = if rng.chance(30) { Names { rng: &mut rng }.long() } else { "Case".to_owned() };
                let candidate = format!("{base}{n}");
                n += 1;
                if !ctor_names.contains(&candidate) {
                    ctor_names.push(candidate);
                }
            }
            let mut constructors = Vec::new();
            for ctor_name in ctor_names {
                let payload = match if many && rng.chance(70) { 0 } else { rng.below(4) } {
                    0 => None,
                    1 => Some(Payload::Positional(vec![term(&mut rng, 2, &scope, &hosting)])),
                    2 => Some(Payload::Positional(
                        (0..2 + rng.below(2)).map(|_| term(&mut rng, 1, &scope, &hosting)).collect(),
                    )),
                    _ => {
                        let n = rng.below(3) as usize;
                        let field_names = Names { rng: &mut rng }.distinct(n, &preferred, &[]);
                        Some(Payload::Named(
                            field_names
                                .into_iter()
                                .map(|name| Field { name, ty: term(&mut rng, 2, &scope, &hosting), doc: None })
                                .collect(),
                        ))
                    }
                };
                let doc = Names { rng: &mut rng }.doc();
                constructors.push(Constructor { name: ctor_name, doc, payload });
            }
            Body::Enum { constructors }
        } else {
            Body::Host
        };
        let doc = Names { rng: &mut rng }.doc();
        let template = template(&file, id, name, generic.clone(), body, doc);
        uses.learn(&local, generic.len(), &flow_core_member_terms(&template));
        let holds = matches!(template.body, Body::Host)
            || flow_core_member_terms(&template).iter().any(|t| reaches_host(t, &declarations, &hosting, &uses));
        hosting.insert(local.clone(), holds);
        earlier.push((local.clone(), generic.len(), matches!(template.body, Body::Host)));
        type_names.push(name.clone());
        declarations.insert(local, template);
    }

    // A type that cannot cross may need a token or a nondata type, declared
    // only then (an unreachable one would be named by a parameter of its own).
    let crossing_kind = rng.below(6);
    let mut token_id = String::new();
    let mut nondata_id = String::new();
    if cannot_cross {
        let n = declarations.len() + 1;
        if matches!(crossing_kind, 0 | 1 | 5) {
            token_id = n.to_string();
            let name = unique_name(&declarations, "Token");
            declarations.insert(token_id.clone(), template(&file, n, &name, vec![], Body::Host, None));
        } else if crossing_kind == 4 {
            nondata_id = n.to_string();
            let name = unique_name(&declarations, "Opaque");
            declarations.insert(nondata_id.clone(), template(&file, n, &name, vec![], Body::Nondata, None));
        }
    }

    // Tools: each declaration is reached by some Tool's parameters.
    let tool_count = 1 + rng.below(3) as usize;
    // Tools and declarations share one namespace of identities: a Tool is
    // named like a type after case folding or mangling only.
    let avoid: Vec<&str> = declarations.values().map(|d| d.name.as_str()).collect();
    // Some named like a declaration's local id (`tool` among them).
    let local_names: Vec<String> =
        declarations.keys().filter(|id| !id.chars().all(|c| c.is_ascii_digit()) && is_name(id)).cloned().collect();
    let tool_names = Names { rng: &mut rng }.distinct(tool_count, &local_names, &avoid);
    let mut tools = Vec::new();
    let ids: Vec<(String, usize)> = earlier.iter().map(|(id, n, _)| (id.clone(), *n)).collect();
    for (t, tool_name) in tool_names.iter().enumerate() {
        let generic_count = if rng.chance(25) { 1 + rng.below(2) as usize } else { 0 };
        let generic = Names { rng: &mut rng }.distinct(
            generic_count,
            &type_names,
            &["Int", "Decimal", "Bool", "Text", "Bytes", "Duration", "Instant", "Unit", "Never", "json.Value"],
        );
        let scope = Scope { earlier: &earlier, uses: &uses, params: Some((TOOL_OWNER, generic.len())), keyed: false };
        let param_count = rng.below(4) as usize;
        let mut param_names = Names { rng: &mut rng }.distinct(param_count + ids.len(), &type_names, &[]);
        let mut params = Vec::new();
        for _ in 0..param_count.min(param_names.len()) {
            let name = param_names.remove(0);
            params.push(Param { name, ty: term(&mut rng, 2, &scope, &hosting) });
        }
        // The first Tool names every declaration, so all are reachable.
        if t == 0 {
            for (id, n) in &ids {
                let Some(name) = param_names.first().cloned() else { break };
                param_names.remove(0);
                let args = args(&mut rng, id, *n, 1, &scope, &hosting);
                params.push(Param { name, ty: Term::Named { declaration: id.clone(), args } });
            }
            if cannot_cross {
                let name = unique_param(&params, "blocked");
                params.push(Param { name, ty: uncrossable(crossing_kind, &token_id, &nondata_id) });
            }
        }
        let ok = term(&mut rng, 2, &scope, &hosting);
        let err = match rng.below(3) {
            0 => Term::Prim(Prim::Never),
            1 => Term::Prim(Prim::Text),
            _ => term(&mut rng, 1, &scope, &hosting),
        };
        let doc = Names { rng: &mut rng }.doc();
        tools.push(ToolDecl { tool: format!("{file}.{tool_name}"), doc, generic, params, ok, err });
    }
    let mut listing = Listing { data: DATA_VERSION.to_owned(), tools, declarations };
    // Every declaration must be reachable: when the first Tool ran out of
    // parameter names, add plain ones.
    ensure_reachable(&mut listing);
    debug_assert!(listing.declarations.values().all(|d| is_name(&d.name)));
    RandomListing { listing, cannot_cross }
}

fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unique_name(declarations: &Declarations, base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 2;
    while declarations.values().any(|d| d.name == name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

fn unique_param(params: &[Param], base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 2;
    while params.iter().any(|p| p.name == name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

fn ensure_reachable(listing: &mut Listing) {
    let reached: std::collections::BTreeSet<String> = {
        let roots: Vec<&Term> =
            listing.tools.iter().flat_map(|t| t.params.iter().map(|p| &p.ty).chain([&t.ok, &t.err])).collect();
        flow_core::types::reach::reachable(&listing.declarations, roots).into_iter().map(str::to_owned).collect()
    };
    let missing: Vec<(String, usize)> = listing
        .declarations
        .iter()
        .filter(|(id, _)| !reached.contains(*id))
        .map(|(id, d)| (id.clone(), d.generic.len()))
        .collect();
    let tool = &mut listing.tools[0];
    for (id, n) in missing {
        let name = unique_param(&tool.params, &format!("d{id}"));
        let args = (0..n).map(|_| Term::Prim(Prim::Int)).collect();
        tool.params.push(Param { name, ty: Term::Named { declaration: id, args } });
    }
}

/// The member terms of a declaration.
fn flow_core_member_terms(template: &Template) -> Vec<&Term> {
    match &template.body {
        Body::Record { fields } => fields.iter().map(|f| &f.ty).collect(),
        Body::Enum { constructors } => constructors
            .iter()
            .flat_map(|c| match &c.payload {
                None => Vec::new(),
                Some(Payload::Positional(parts)) => parts.iter().collect(),
                Some(Payload::Named(fields)) => fields.iter().map(|f| &f.ty).collect(),
            })
            .collect(),
        Body::Host | Body::Nondata => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::validate::validate_listing;

    #[test]
    fn every_random_listing_is_valid() {
        let mut crossing = 0;
        for seed in 0..2000 {
            let random = random_listing(seed);
            crossing += usize::from(random.cannot_cross);
            validate_listing(&random.listing).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        assert!(crossing > 50, "too few listings hold a type that cannot cross: {crossing}");
    }

    fn depth(term: &Term) -> usize {
        match term {
            Term::List(t) | Term::Set(t) | Term::Option(t) | Term::Task(t) => 1 + depth(t),
            Term::Dict(k, v) => 1 + depth(k).max(depth(v)),
            Term::Tuple(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Term::Named { args, .. } => 1 + args.iter().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// The classes no line of a generated file may assume it is spared.
    #[test]
    fn random_listings_reach_long_enums_long_names_and_docs_tool_owned_params_and_deep_nesting() {
        let (mut long_enum, mut tool_owned, mut long_name, mut long_doc, mut deep, mut tool_like) = (0, 0, 0, 0, 0, 0);
        for seed in 0..500 {
            let listing = random_listing(seed).listing;
            let names: Vec<&str> = listing.tools.iter().map(|t| identity_name(&t.tool)).collect();
            for (id, d) in &listing.declarations {
                if let Body::Enum { constructors } = &d.body {
                    long_enum += usize::from(constructors.len() >= 50);
                }
                let mut owned = false;
                for term in flow_core_member_terms(d) {
                    term.walk(&mut |t| owned |= matches!(t, Term::Param { owner, .. } if owner == TOOL_OWNER));
                    deep += usize::from(depth(term) >= 6);
                }
                tool_owned += usize::from(id == TOOL_OWNER && owned);
                long_name += usize::from(d.name.chars().count() > 120);
                long_doc += usize::from(d.doc.as_ref().is_some_and(|doc| doc.len() > 1000));
                tool_like += usize::from(names.contains(&id.as_str()));
            }
        }
        assert!(long_enum > 20, "enums of 50 constructors or more: {long_enum}");
        assert!(tool_owned > 20, "declarations `tool` whose Params say owner `tool`: {tool_owned}");
        assert!(long_name > 20, "names longer than a line: {long_name}");
        assert!(long_doc > 20, "docs of over 1,000 characters: {long_doc}");
        assert!(deep > 20, "members nested six deep: {deep}");
        assert!(tool_like > 5, "local ids that are a Tool's name: {tool_like}");
    }

    /// The shapes that decide a Rust type's derives and markers come up:
    /// declarations that order a parameter, arguments no value holds that
    /// have no encoding, and generic Tools that order their parameters.
    #[test]
    fn random_listings_hold_ordered_and_unused_parameters() {
        let (mut ordered, mut phantom_only, mut tool_keyed) = (0, 0, 0);
        for seed in 0..500 {
            let listing = random_listing(seed).listing;
            let mut uses = Uses::default();
            for (id, d) in &listing.declarations {
                uses.learn(id, d.generic.len(), &flow_core_member_terms(d));
            }
            ordered += usize::from(uses.ordered.values().any(|o| o.contains(&true)));
            let roots = listing.tools.iter().flat_map(|t| t.params.iter().map(|p| &p.ty).chain([&t.ok, &t.err]));
            let members = listing.declarations.values().flat_map(flow_core_member_terms);
            let mut found = false;
            for term in roots.chain(members) {
                term.walk(&mut |t| {
                    if let Term::Named { declaration, args } = t {
                        found |= args.iter().enumerate().any(|(j, a)| {
                            !uses.used(declaration, j) && matches!(a, Term::Function { .. } | Term::Task(_))
                        });
                    }
                });
            }
            phantom_only += usize::from(found);
            let mut keyed = false;
            for tool in &listing.tools {
                for term in tool.params.iter().map(|p| &p.ty) {
                    term.walk(&mut |t| {
                        if let Term::Set(item) | Term::Dict(item, _) = t {
                            keyed |= matches!(**item, Term::Param { .. });
                        }
                    });
                }
            }
            tool_keyed += usize::from(keyed);
        }
        assert!(ordered > 50, "too few listings order a declaration's parameter: {ordered}");
        assert!(phantom_only > 20, "too few listings mark a parameter with a function or Task: {phantom_only}");
        assert!(tool_keyed > 5, "too few generic Tools order their parameter: {tool_keyed}");
    }
}
