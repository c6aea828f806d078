//! Each language's names that a generated identifier must not take:
//! keywords, soft and contextual keywords, builtins the generated code or a
//! reader relies on, and names lints refuse.

use super::Lang;

/// Python's keywords: a syntax error as a name.
pub const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
    "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Python's soft keywords and the builtins that a module-level name would
/// hide from the code and its readers (the generated annotations use some).
pub const PYTHON_BUILTINS: &[&str] = &[
    "match", "case", "type", "_", "int", "str", "bool", "bytes", "list", "dict", "set", "frozenset", "tuple", "object",
    "float", "complex", "type", "super", "print", "len", "isinstance", "issubclass", "property", "staticmethod",
    "classmethod", "Exception", "BaseException", "NotImplemented", "Ellipsis", "__debug__", "__name__", "__doc__",
    "__all__", "__file__", "__spec__", "__path__", "__package__", "__loader__", "__builtins__", "__annotations__",
    // Modules the generated files import.
    "typing", "dataclasses", "decimal", "flow_toolkit", "models", "tools", "metadata", "abc", "annotations",
];

/// TypeScript's and JavaScript's reserved words, strict-mode reserved
/// words, contextual keywords and predefined type names.
pub const TYPESCRIPT_KEYWORDS: &[&str] = &[
    "abstract", "accessor", "any", "arguments", "as", "asserts", "async", "await", "bigint", "boolean", "break", "case",
    "catch", "class", "const", "constructor", "continue", "debugger", "declare", "default", "delete", "do", "else", "enum",
    "eval", "export", "extends", "false", "finally", "for", "from", "function", "get", "global", "if", "implements",
    "import", "in", "infer", "instanceof", "interface", "intrinsic", "is", "keyof", "let", "module", "namespace", "never",
    "new", "null", "number", "object", "of", "out", "override", "package", "private", "protected", "public", "readonly",
    "require", "return", "satisfies", "set", "static", "string", "super", "switch", "symbol", "this", "throw", "true",
    "try", "type", "typeof", "undefined", "unique", "unknown", "using", "var", "void", "while", "with", "yield",
];

/// Globals and library types a generated name would hide.
pub const TYPESCRIPT_BUILTINS: &[&str] = &[
    "Array", "ArrayBuffer", "BigInt", "Boolean", "Date", "Error", "Function", "Iterable", "JSON", "Map", "Math", "Number",
    "Object", "Omit", "Partial", "Pick", "Promise", "PromiseLike", "Readonly", "ReadonlyArray", "ReadonlyMap",
    "ReadonlySet", "Record", "Required", "Set", "String", "Symbol", "Uint8Array", "WeakMap", "WeakSet", "globalThis",
    "console", "process", "NaN", "Infinity",
];

/// Rust's strict and reserved keywords (2015 to 2024 editions), and the
/// weak ones that are keywords in some position.
pub const RUST_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut",
    "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers (`r#self` is refused).
pub const RUST_NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Names clippy refuses for a binding (`disallowed_names`), and the
/// prelude's names, which a type or variant would hide.
pub const RUST_BUILTINS: &[&str] = &[
    "foo", "baz", "quux", "Option", "Some", "None", "Result", "Ok", "Err", "Vec", "String", "Box", "ToString", "ToOwned",
    "Clone", "Copy", "Send", "Sync", "Sized", "Unpin", "Drop", "Fn", "FnMut", "FnOnce", "Iterator", "IntoIterator",
    "Extend", "Default", "Debug", "Eq", "PartialEq", "Ord", "PartialOrd", "Hash", "From", "Into", "TryFrom", "TryInto",
    "AsRef", "AsMut", "DoubleEndedIterator", "ExactSizeIterator", "FromIterator", "bool", "char", "str", "u8", "u16",
    "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "std", "core", "alloc",
];

/// Whether `name` is reserved in `lang`.
pub fn is_reserved(lang: Lang, name: &str) -> bool {
    let lists: &[&[&str]] = match lang {
        Lang::Python => &[PYTHON_KEYWORDS, PYTHON_BUILTINS],
        Lang::TypeScript => &[TYPESCRIPT_KEYWORDS, TYPESCRIPT_BUILTINS],
        Lang::Rust => &[RUST_KEYWORDS, RUST_NOT_RAW, RUST_BUILTINS],
    };
    lists.iter().any(|list| list.contains(&name))
        // A Python `__x` inside a class is mangled to `_Class__x`.
        || (lang == Lang::Python && name.starts_with("__"))
        // Clippy refuses bindings of only underscores and digits.
        || (lang == Lang::Rust && name.chars().all(|c| c == '_' || c.is_ascii_digit()))
}
