//! Refusals. Every refusal names where it happened (a JSON path such as
//! `$.days[3].high_c`) and which rule was broken (a stable code that the Python
//! and Node bindings and the shared test vectors use too), plus a sentence for
//! people.

use std::fmt;

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// An object member.
    Key(String),
    /// An array item.
    Index(usize),
}

/// A JSON path, outermost step first. Displayed as `$`, `$.days[3].high_c` or
/// `$.declarations["7"]` (keys that are not identifiers are quoted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path(pub Vec<Seg>);

impl Path {
    /// The path `$`: the document itself.
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// This path, one object member `key` deeper.
    pub fn key(mut self, key: impl Into<String>) -> Path {
        self.0.push(Seg::Key(key.into()));
        self
    }

    /// This path, one array item `index` deeper.
    pub fn index(mut self, index: usize) -> Path {
        self.0.push(Seg::Index(index));
        self
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    match chars.next() {
        Some(c) if c == '_' || c.is_ascii_alphabetic() => {}
        _ => return false,
    }
    chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for seg in &self.0 {
            match seg {
                Seg::Index(i) => write!(f, "[{i}]")?,
                Seg::Key(k) if is_identifier(k) => write!(f, ".{k}")?,
                Seg::Key(k) => {
                    let mut quoted = String::with_capacity(k.len() + 2);
                    crate::json::string::write_string(&mut quoted, k);
                    write!(f, "[{quoted}]")?
                }
            }
        }
        Ok(())
    }
}

/// The rule a refusal broke. `code()` is stable: vectors and bindings match on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    // JSON text
    /// Not JSON under RFC 8259.
    Syntax,
    /// Bytes that are not UTF-8.
    Utf8,
    /// A byte-order mark before the text.
    ByteOrderMark,
    /// An escaped lone surrogate such as `"\ud800"`.
    LoneSurrogate,
    /// The same key twice in one object (or twice in a Dict).
    DuplicateKey,
    /// More bytes than the message size limit.
    TooLarge,
    /// Arrays and objects nested deeper than the depth limit.
    TooDeep,
    /// A number whose canonical text has more digits than the limit.
    NumberTooLarge,

    // Typed decoding
    /// The JSON kind does not match the declared type.
    Type,
    /// An Int whose value is not whole.
    NotWhole,
    /// Bytes that are not canonical padded standard base64.
    Base64,
    /// A malformed Instant.
    Instant,
    /// A malformed Duration.
    Duration,
    /// An Instant or Duration outside its range.
    Range,
    /// A required record field is missing.
    MissingField,
    /// An enum value with an unknown constructor or the wrong payload shape.
    Constructor,
    /// A tuple with the wrong number of items.
    TupleLength,
    /// A Set holding the same element twice.
    DuplicateElement,
    /// A value of type Never (there are none).
    Never,

    // Listings, TypeSpecs and call views
    /// A data version whose major differs from ours: a version refusal.
    Version,
    /// An object with unknown or missing members, or a member of the wrong type.
    Shape,
    /// A type term that is not one of the forms.
    UnknownTerm,
    /// Two names in one scope that must be unique.
    DuplicateName,
    /// A Param whose owner is not the declaration or Tool it appears in.
    ParamOwner,
    /// A Param index outside its owner's parameters.
    ParamIndex,
    /// A Named term with the wrong number of arguments.
    Arity,
    /// A Named term naming no declaration.
    Unresolved,
    /// A declaration no Tool root reaches.
    Disconnected,
    /// A Param in a root that must be concrete.
    FreeParam,
    /// Recursion through an expanding edge.
    ExpandingRecursion,
    /// A malformed identity, or a name that disagrees with its identity.
    Identity,
    /// An empty enum, an empty positional payload, a reserved generic name...
    Invalid,
    /// A call view that disagrees with the served TypeSpec.
    ViewMismatch,
    /// A Tool that cannot be served (a `$defs` key clash, a schema too large or deep to send).
    NotServable,
    /// A type no value of which can cross: it holds a function, Task or
    /// nondata type, or a host token in a Set element or a Dict key.
    CannotCross,
    /// A value that cannot be encoded at its type.
    Encode,
}

impl Rule {
    /// The rule's name as refusals write it (`"missing-field"`, `"encode"`).
    pub fn code(self) -> &'static str {
        match self {
            Rule::Syntax => "syntax",
            Rule::Utf8 => "utf8",
            Rule::ByteOrderMark => "bom",
            Rule::LoneSurrogate => "lone-surrogate",
            Rule::DuplicateKey => "duplicate-key",
            Rule::TooLarge => "too-large",
            Rule::TooDeep => "too-deep",
            Rule::NumberTooLarge => "number-too-large",
            Rule::Type => "type",
            Rule::NotWhole => "not-whole",
            Rule::Base64 => "base64",
            Rule::Instant => "instant",
            Rule::Duration => "duration",
            Rule::Range => "range",
            Rule::MissingField => "missing-field",
            Rule::Constructor => "constructor",
            Rule::TupleLength => "tuple-length",
            Rule::DuplicateElement => "duplicate-element",
            Rule::Never => "never",
            Rule::Version => "version",
            Rule::Shape => "shape",
            Rule::UnknownTerm => "unknown-term",
            Rule::DuplicateName => "duplicate-name",
            Rule::ParamOwner => "param-owner",
            Rule::ParamIndex => "param-index",
            Rule::Arity => "arity",
            Rule::Unresolved => "unresolved",
            Rule::Disconnected => "disconnected",
            Rule::FreeParam => "free-param",
            Rule::ExpandingRecursion => "expanding-recursion",
            Rule::Identity => "identity",
            Rule::Invalid => "invalid",
            Rule::ViewMismatch => "view-mismatch",
            Rule::NotServable => "not-servable",
            Rule::CannotCross => "cannot-cross",
            Rule::Encode => "encode",
        }
    }
}

/// A refusal: where, which rule, and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Where in the input the rule was broken.
    pub path: Path,
    /// Which rule was broken.
    pub rule: Rule,
    /// What was wrong and, where it can, the fix.
    pub message: String,
}

impl Error {
    /// A refusal at the root path.
    pub fn new(rule: Rule, message: impl Into<String>) -> Error {
        Error { path: Path::root(), rule, message: message.into() }
    }

    /// A refusal at `path`.
    pub fn at(path: Path, rule: Rule, message: impl Into<String>) -> Error {
        Error { path, rule, message: message.into() }
    }

    /// Puts this error one level deeper: called while unwinding, so a success
    /// pays nothing for path tracking.
    pub fn under(mut self, seg: Seg) -> Error {
        self.path.0.insert(0, seg);
        self
    }

    /// This error under object member `key`, as [`Error::under`] does.
    pub fn under_key(self, key: &str) -> Error {
        self.under(Seg::Key(key.to_owned()))
    }

    /// This error under array item `index`, as [`Error::under`] does.
    pub fn under_index(self, index: usize) -> Error {
        self.under(Seg::Index(index))
    }

    /// Prefixes a whole path (for errors found inside an embedded document).
    pub fn under_path(mut self, outer: &Path) -> Error {
        let mut segs = outer.0.clone();
        segs.append(&mut self.path.0);
        self.path.0 = segs;
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.path, self.message, self.rule.code())
    }
}

impl std::error::Error for Error {}

/// A result whose error is a refusal, unless said otherwise.
pub type Result<T, E = Error> = std::result::Result<T, E>;
