//! Comparison impls written out for a type with a type parameter that no
//! value uses. `#[derive(PartialEq, Ord, Hash)]` bounds every type parameter,
//! the marked ones too, so `Tag<HostToken>` would have no `Ord` although no
//! host token is in it, and a `BTreeSet<Tag<HostToken>>` (which Flow lets
//! cross: an unused argument is no value) would not compile. These impls
//! bound only the parameters values use, and compare exactly as the derives
//! would: fields in declaration order, constructors in declaration order and
//! then their parts. Every trait is written with its path: a declaration
//! may be named `Ord` or `Option`.

use super::analysis::Traits;

/// The members of the type, by their Rust names.
pub enum Shape<'a> {
    Struct { fields: Vec<&'a str> },
    Enum { variants: Vec<VariantShape<'a>>, marker: &'a str },
}

/// One variant: its name and its payload's parts.
pub struct VariantShape<'a> {
    pub ident: &'a str,
    pub payload: PayloadShape<'a>,
}

pub enum PayloadShape<'a> {
    Unit,
    Positional(usize),
    Named(Vec<&'a str>),
}

/// The type's generic parameters: each name and whether values use it.
pub struct Generics<'a> {
    pub params: Vec<(&'a str, bool)>,
    /// `Tag<T, U>`.
    pub self_type: &'a str,
}

impl Generics<'_> {
    /// `<T: Ord, U>`: the used parameters bounded by `bound`.
    fn header(&self, bound: &str) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(name, used)| if *used { format!("{name}: {bound}") } else { (*name).to_owned() })
            .collect();
        format!("<{}>", params.join(", "))
    }
}

/// The impls of `traits` for the type, each after a blank line (and no line
/// break after the last).
pub fn impls(generics: &Generics, shape: &Shape, traits: Traits) -> String {
    let mut out = String::new();
    let self_type = generics.self_type;
    if traits.eq {
        let body = indent(&equal(shape), 8);
        out.push_str(&format!(
            "\n\nimpl{} std::cmp::PartialEq for {self_type} {{\n    fn eq(&self, other: &Self) -> bool {{\n{body}\n    }}\n}}",
            generics.header("std::cmp::PartialEq")
        ));
        out.push_str(&format!("\n\nimpl{} std::cmp::Eq for {self_type} {{}}", generics.header("std::cmp::Eq")));
    }
    if traits.ord {
        // Bounded by `PartialOrd` alone, as a derived `PartialOrd` of a type
        // holding this one bounds its parameters: so not `Some(self.cmp(other))`.
        let body = indent(&order(shape, Compare::Partial), 8);
        out.push_str(&format!(
            "\n\n#[allow(clippy::non_canonical_partial_ord_impl)]\nimpl{} std::cmp::PartialOrd for {self_type} {{\n    fn partial_cmp(&self, other: &Self) -> std::option::Option<std::cmp::Ordering> {{\n{body}\n    }}\n}}",
            generics.header("std::cmp::PartialOrd")
        ));
        let body = indent(&order(shape, Compare::Total), 8);
        out.push_str(&format!(
            "\n\nimpl{} std::cmp::Ord for {self_type} {{\n    fn cmp(&self, other: &Self) -> std::cmp::Ordering {{\n{body}\n    }}\n}}",
            generics.header("std::cmp::Ord")
        ));
    }
    if traits.hash {
        let body = indent(&hash(shape), 8);
        // The hasher's type parameter takes a name none of the type's has.
        let hasher = (1..)
            .map(|n| if n == 1 { "H".to_owned() } else { format!("H{n}") })
            .find(|h| generics.params.iter().all(|(p, _)| p != h))
            .expect("a free name");
        out.push_str(&format!(
            "\n\nimpl{} std::hash::Hash for {self_type} {{\n    fn hash<{hasher}: std::hash::Hasher>(&self, state: &mut {hasher}) {{\n{body}\n    }}\n}}",
            generics.header("std::hash::Hash")
        ));
    }
    out
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines().map(|l| if l.is_empty() { String::new() } else { format!("{pad}{l}") }).collect::<Vec<_>>().join("\n")
}

/// The variant's pattern binding its parts as `{prefix}0`, `{prefix}1`, ...
/// and those bindings.
fn pattern(variant: &VariantShape, prefix: &str) -> (String, Vec<String>) {
    let ident = variant.ident;
    match &variant.payload {
        PayloadShape::Unit => (format!("Self::{ident}"), Vec::new()),
        PayloadShape::Positional(n) => {
            let names: Vec<String> = (0..*n).map(|i| format!("{prefix}{i}")).collect();
            (format!("Self::{ident}({})", names.join(", ")), names)
        }
        PayloadShape::Named(fields) if fields.is_empty() => (format!("Self::{ident} {{}}"), Vec::new()),
        PayloadShape::Named(fields) => {
            let names: Vec<String> = (0..fields.len()).map(|i| format!("{prefix}{i}")).collect();
            let parts: Vec<String> = fields.iter().zip(&names).map(|(f, n)| format!("{f}: {n}")).collect();
            (format!("Self::{ident} {{ {} }}", parts.join(", ")), names)
        }
    }
}

/// `let rank = |value: &Self| match value { ... };`: each variant's place in
/// the declaration order (the marker variant has no values).
fn rank(variants: &[VariantShape], marker: &str) -> String {
    let mut out = String::from("let rank = |value: &Self| match value {\n");
    for (i, v) in variants.iter().enumerate() {
        let any = match v.payload {
            PayloadShape::Unit => format!("Self::{}", v.ident),
            PayloadShape::Positional(_) => format!("Self::{}(..)", v.ident),
            PayloadShape::Named(_) => format!("Self::{} {{ .. }}", v.ident),
        };
        out.push_str(&format!("    {any} => {i},\n"));
    }
    out.push_str(&format!("    Self::{marker}(never, _) => match *never {{}},\n}};"));
    out
}

/// Variants with parts, each with its arm's patterns and bindings.
fn with_parts<'v>(
    variants: &'v [VariantShape<'v>],
) -> impl Iterator<Item = (String, String, Vec<String>, Vec<String>)> + 'v {
    variants.iter().filter(|v| !pattern(v, "a").1.is_empty()).map(|v| {
        let (left, lefts) = pattern(v, "a");
        let (right, rights) = pattern(v, "b");
        (left, right, lefts, rights)
    })
}

fn equal(shape: &Shape) -> String {
    match shape {
        Shape::Struct { fields } if fields.is_empty() => "let _ = other;\ntrue".to_owned(),
        Shape::Struct { fields } => {
            fields.iter().map(|f| format!("self.{f} == other.{f}")).collect::<Vec<_>>().join("\n    && ")
        }
        Shape::Enum { variants, marker } => {
            let mut out = rank(variants, marker);
            let arms: Vec<String> = with_parts(variants)
                .map(|(left, right, lefts, rights)| {
                    let test: Vec<String> = lefts.iter().zip(&rights).map(|(a, b)| format!("{a} == {b}")).collect();
                    format!("    ({left}, {right}) => {},\n", test.join(" && "))
                })
                .collect();
            if arms.is_empty() {
                out.push_str("\nrank(self) == rank(other)");
            } else {
                out.push_str("\nmatch (self, other) {\n");
                arms.iter().for_each(|a| out.push_str(a));
                out.push_str("    _ => rank(self) == rank(other),\n}");
            }
            out
        }
    }
}

/// `Ord::cmp` or `PartialOrd::partial_cmp`.
#[derive(Clone, Copy)]
enum Compare {
    Total,
    Partial,
}

impl Compare {
    fn method(self) -> &'static str {
        match self {
            Compare::Total => "cmp",
            Compare::Partial => "partial_cmp",
        }
    }

    fn equal(self) -> &'static str {
        match self {
            Compare::Total => "std::cmp::Ordering::Equal",
            Compare::Partial => "std::option::Option::Some(std::cmp::Ordering::Equal)",
        }
    }

    /// Compares `pairs` in turn (`(left, right)`, `right` a reference): the
    /// first that is not equal decides.
    fn chain(self, pairs: Vec<(String, String)>) -> String {
        let method = self.method();
        let mut compares: Vec<String> = pairs.into_iter().map(|(a, b)| format!("{a}.{method}({b})")).collect();
        let last = compares.pop().expect("at least one part");
        match self {
            Compare::Total => {
                compares.iter().map(|c| format!("{c}.then_with(|| ")).collect::<String>()
                    + &last
                    + &")".repeat(compares.len())
            }
            Compare::Partial if compares.is_empty() => last,
            Compare::Partial => {
                let mut out = String::from("{\n");
                for c in compares {
                    out.push_str(&format!(
                        "    match {c} {{\n        {} => {{}}\n        ordering => return ordering,\n    }}\n",
                        self.equal()
                    ));
                }
                out.push_str(&format!("    {last}\n}}"));
                out
            }
        }
    }
}

fn order(shape: &Shape, compare: Compare) -> String {
    let method = compare.method();
    match shape {
        Shape::Struct { fields } if fields.is_empty() => format!("let _ = other;\n{}", compare.equal()),
        Shape::Struct { fields } => {
            compare.chain(fields.iter().map(|f| (format!("self.{f}"), format!("&other.{f}"))).collect())
        }
        Shape::Enum { variants, marker } => {
            let mut out = rank(variants, marker);
            let arms: Vec<String> = with_parts(variants)
                .map(|(left, right, lefts, rights)| {
                    let chain = compare.chain(lefts.into_iter().zip(rights).collect());
                    format!("    ({left}, {right}) => {},\n", indent(&chain, 4).trim_start())
                })
                .collect();
            if arms.is_empty() {
                out.push_str(&format!("\nrank(self).{method}(&rank(other))"));
            } else {
                out.push_str("\nmatch (self, other) {\n");
                arms.iter().for_each(|a| out.push_str(a));
                out.push_str(&format!("    _ => rank(self).{method}(&rank(other)),\n}}"));
            }
            out
        }
    }
}

fn hash(shape: &Shape) -> String {
    match shape {
        Shape::Struct { fields } if fields.is_empty() => "let _ = state;".to_owned(),
        Shape::Struct { fields } => {
            fields.iter().map(|f| format!("std::hash::Hash::hash(&self.{f}, state);")).collect::<Vec<_>>().join("\n")
        }
        Shape::Enum { variants, marker } => {
            let mut out = rank(variants, marker);
            out.push_str("\nstd::hash::Hash::hash(&rank(self), state);");
            let arms: Vec<(String, String)> = variants
                .iter()
                .filter_map(|v| {
                    let (left, lefts) = pattern(v, "a");
                    (!lefts.is_empty()).then(|| {
                        let hashes: Vec<String> =
                            lefts.iter().map(|a| format!("std::hash::Hash::hash({a}, state);")).collect();
                        (left, hashes.join("\n"))
                    })
                })
                .collect();
            match arms.as_slice() {
                [] => {}
                // clippy's single_match: one arm is an `if let`.
                [(left, hashes)] => out.push_str(&format!("\nif let {left} = self {{\n{}\n}}", indent(hashes, 4))),
                many => {
                    out.push_str("\nmatch self {\n");
                    for (left, hashes) in many {
                        out.push_str(&format!("    {left} => {{\n{}\n    }}\n", indent(hashes, 8)));
                    }
                    out.push_str("    _ => {}\n}");
                }
            }
            out
        }
    }
}
