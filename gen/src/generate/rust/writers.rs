//! The bodies of the generated `CanonicalText` impls: a record or enum value
//! writing its canonical text itself, the bytes its `into_value` would give
//! the core to write. Members go in the order of the names' bytes, as the
//! value model writes a record; names are written as JSON strings made here,
//! so the generated code holds them ready to append.

use super::items::{FieldItem, Record, Variant};
use super::layout;
use super::names::{json_string, string_literal};

/// The names the writers' own variables take, which a named part's binding
/// must not shadow.
const WRITER_NAMES: [&str; 2] = ["out", "first"];

/// Fields in the order of their names' bytes: the canonical text's order.
fn sorted(fields: &[FieldItem]) -> Vec<&FieldItem> {
    let mut sorted: Vec<&FieldItem> = fields.iter().collect();
    sorted.sort_by(|a, b| a.flow_name.as_bytes().cmp(b.flow_name.as_bytes()));
    sorted
}

/// One `flow::write_member(out, first, "\"name\":", value)?;` per field, at
/// `indent`, `value` given by `binding`.
fn members(indent: usize, fields: &[FieldItem], binding: impl Fn(&FieldItem) -> String) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    for field in sorted(fields) {
        let args = ["out".to_owned(), "first".to_owned(), field.member.clone(), binding(field)];
        out.push_str(&pad);
        out.push_str(&layout::list(indent, indent, "flow::write_member", "(", ")", &args, "?;"));
        out.push('\n');
    }
    out
}

impl Record {
    /// The body of `write_canonical` (indented by 8).
    pub fn writing(&self) -> String {
        if self.fields.is_empty() {
            return "out.push_str(\"{}\");\n        Ok(())".to_owned();
        }
        let mut out = "let first = &mut true;\n        out.push('{');\n".to_owned();
        out.push_str(&members(8, &self.fields, |f| format!("&self.{}", f.ident)));
        out.push_str("        out.push('}');\n        Ok(())");
        out
    }
}

impl Variant {
    /// The binding of a named part in the arm's pattern and body.
    fn binding(field: &FieldItem) -> String {
        if WRITER_NAMES.contains(&field.ident.as_str()) {
            format!("part_{}", field.ident)
        } else {
            field.ident.clone()
        }
    }

    /// The match arm that writes this variant, in `CanonicalText` (the arms
    /// are indented by 12).
    pub fn writing_arm(&self) -> String {
        let ident = &self.ident;
        let name = json_string(&self.flow_name);
        // `{"Name":` and what opens the payload.
        let head = |text: &str| string_literal(&format!("{{{name}:{text}"));
        if self.unit {
            let call = format!("out.push_str({})", string_literal(&name));
            return layout::match_arm(12, &format!("Self::{ident}"), |_| call.clone());
        }
        if self.named && self.fields.is_empty() {
            let call = format!("out.push_str({})", head("{}}"));
            return layout::match_arm(12, &format!("Self::{ident} {{}}"), |_| call.clone());
        }
        let mut body = String::new();
        let pattern = if self.named {
            let bindings: Vec<String> = self
                .fields
                .iter()
                .map(|f| {
                    let binding = Self::binding(f);
                    if binding == f.ident {
                        binding
                    } else {
                        format!("{}: {binding}", f.ident)
                    }
                })
                .collect();
            body.push_str("                let first = &mut true;\n");
            body.push_str(&format!("                out.push_str({});\n", head("{")));
            body.push_str(&members(16, &self.fields, Self::binding));
            body.push_str("                out.push_str(\"}}\");\n");
            format!("Self::{ident} {{ {} }}", bindings.join(", "))
        } else {
            let bindings: Vec<String> = (0..self.parts.len()).map(|i| format!("part{i}")).collect();
            let single = bindings.len() == 1;
            body.push_str(&format!("                out.push_str({});\n", head(if single { "" } else { "[" })));
            for (i, binding) in bindings.iter().enumerate() {
                if i > 0 {
                    body.push_str("                out.push(',');\n");
                }
                body.push_str(&format!("                flow::write_value(out, {binding})?;\n"));
            }
            body.push_str(if single {
                "                out.push('}');\n"
            } else {
                "                out.push_str(\"]}\");\n"
            });
            format!("Self::{ident}({})", bindings.join(", "))
        };
        format!("{pattern} => {{\n{body}            }}")
    }
}
