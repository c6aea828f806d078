//! The Tools as methods: one per Tool, typed, with its doc and identity;
//! `Result<Ok, Err>` for the declared error; the call context first.

use flow_core::types::{identity_name, ToolDecl};

use super::layout;
use super::names::{doc_lines, screaming, snake, string_literal, Scope, Style};
use super::terms::{Builtin, FileScope, Place, Terms};

/// What every file that mentions a Tool needs of it, whatever its scope.
pub struct ToolNames {
    /// The method's name.
    pub method: String,
    /// The serve.rs handler's name.
    pub handler: String,
    /// The metadata constant's name.
    pub constant: String,
    /// Parameter names, in order.
    pub params: Vec<String>,
}

/// The name of the call context parameter, which no Tool parameter takes.
pub const CONTEXT: &str = "ctx";

/// Names the methods, handlers, constants and parameters of every Tool.
pub fn tool_names(tools: &[ToolDecl]) -> Vec<ToolNames> {
    let mut methods = Scope::new(Style::RustSnake);
    // The handlers live beside `serve` and `server`, whose locals (and the
    // handlers' own) would hide a function of their name.
    let mut handlers = Scope::new(Style::RustSnake)
        .refer(["serve", "server", "tools", "handlers", "handler", "identity", "call", "ctx", "reply", "args"]);
    let mut constants = Scope::new(Style::RustScreaming).refer(["LISTING", "DESCRIBE", "TOOLS"]);
    tools
        .iter()
        .map(|tool| {
            let name = identity_name(&tool.tool);
            let method = methods.claim(&snake(name));
            let mut params = Scope::new(Style::RustSnake).refer([CONTEXT]);
            ToolNames {
                handler: handlers.claim(method.trim_start_matches("r#")),
                constant: constants.claim(&screaming(name)),
                params: tool.params.iter().map(|p| params.claim(&snake(&p.name))).collect(),
                method,
            }
        })
        .collect()
}

/// One method, rendered for one file.
pub struct Method {
    pub method: String,
    /// The method's name as a string literal.
    pub method_literal: String,
    /// Doc lines at the trait's indent.
    pub doc: String,
    /// The same lines at the top level.
    pub top_doc: String,
    /// The identity alone, at the trait's indent (for the scaffold).
    pub stub_doc: String,
    /// The trait's declaration (`fn name(...) -> impl Future<...>;`), or
    /// the implementation's stub (`async fn name(...) -> Result<...> {`).
    pub signature: String,
    pub handler: String,
    /// The handler's `let reply = Tools::method(tools, ctx, args...);`.
    pub handler_call: String,
    /// The handler closure's name for the args: `args`, or `_` for none.
    pub args_binding: String,
    /// The toolkit function the handler runs through: `handle_typed`, whose
    /// args decode from their JSON into the Rust types, or for a generic
    /// Tool (whose args the core decodes at the call's types) `handle`.
    pub handle: String,
    pub constant: String,
    pub identity: String,
    pub fingerprint: String,
}

/// `fn name(&self, a: A) -> R` on one line when it fits in rustfmt's width,
/// else one parameter per line.
fn signature(indent: &str, head: &str, params: &[(String, String)], returns: &str, end: &str) -> String {
    let mut all = vec!["&self".to_owned()];
    all.extend(params.iter().map(|(name, ty)| format!("{name}: {ty}")));
    let one_line = format!("{indent}{head}({}) -> {returns}{end}", all.join(", "));
    if one_line.len() <= layout::MAX_WIDTH {
        return one_line;
    }
    let mut out = format!("{indent}{head}(\n");
    for param in all {
        out.push_str(&format!("{indent}    {param},\n"));
    }
    out.push_str(indent);
    out.push_str(&layout::generic_type(indent.len(), ") -> ", returns, end));
    out
}

/// Which signature a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The trait's.
    Declaration,
    /// The implementation scaffold's.
    Stub,
}

/// Every Tool's method as `scope` writes its types.
pub fn methods(
    tools: &[ToolDecl],
    names: &[ToolNames],
    fingerprints: &[String],
    terms: &Terms,
    scope: &FileScope,
    form: Form,
    trait_name: &str,
) -> Result<Vec<Method>, String> {
    tools
        .iter()
        .zip(names)
        .zip(fingerprints)
        .map(|((tool, names), fingerprint)| {
            let place = Place::Root { generic: tool.is_generic() };
            let within = |what: &str, e: String| format!("{}: {what}: {e}", tool.tool);
            let mut params = vec![(CONTEXT.to_owned(), format!("&{}", scope.builtin(Builtin::Call)))];
            for (param, name) in tool.params.iter().zip(&names.params) {
                let ty = terms
                    .render(&param.ty, place, scope)
                    .map_err(|e| within(&format!("parameter {}", param.name), e))?;
                params.push((name.clone(), ty));
            }
            let ok = terms.render(&tool.ok, place, scope).map_err(|e| within("the success type", e))?;
            let err = terms.render(&tool.err, place, scope).map_err(|e| within("the error type", e))?;
            let result = format!("{}<{ok}, {err}>", scope.builtin(Builtin::Result));
            let signature = match form {
                Form::Declaration => {
                    let future = format!("impl {}<Output = {result}>", scope.builtin(Builtin::Future));
                    signature("    ", &format!("fn {}", names.method), &params, &future, ";")
                }
                Form::Stub => signature("    ", &format!("async fn {}", names.method), &params, &result, " {"),
            };
            let doc = |indent: &str| {
                let mut doc = doc_lines(tool.doc.as_deref(), indent);
                if !doc.is_empty() {
                    doc.push_str(indent);
                    doc.push_str("///\n");
                }
                doc.push_str(&doc_lines(Some(&format!("`{}`", tool.tool)), indent));
                doc
            };
            let mut args = vec!["tools".to_owned(), CONTEXT.to_owned()];
            args.extend(tool.params.iter().map(|p| format!("args.next({})?", string_literal(&p.name))));
            let callee = format!("{trait_name}::{}", names.method);
            let handler_call =
                layout::let_statement(8, "reply", |column| layout::list(8, column, &callee, "(", ")", &args, ""));
            Ok(Method {
                handler_call,
                args_binding: if tool.params.is_empty() { "_" } else { "args" }.to_owned(),
                handle: if tool.is_generic() { "handle" } else { "handle_typed" }.to_owned(),
                signature,
                method_literal: string_literal(names.method.trim_start_matches("r#")),
                method: names.method.clone(),
                doc: doc("    "),
                top_doc: doc(""),
                stub_doc: doc_lines(Some(&format!("`{}`", tool.tool)), "    "),
                handler: names.handler.clone(),
                constant: names.constant.clone(),
                identity: string_literal(&tool.tool),
                fingerprint: string_literal(fingerprint),
            })
        })
        .collect()
}
