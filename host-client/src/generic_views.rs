//! A generic call's views, built by the host from concrete type arguments: the
//! `types` view (`host-boundary.md`, "Type descriptions": bindings, the
//! substituted params, ok and err, and exactly the declarations those reach)
//! and the `schema` view (the describe-form schema of the concrete success
//! type). The host describes the caller's types; here the caller's types are
//! the listing's declarations.

use flow_core::error::{Error, Result, Rule};
use flow_core::json::Json;
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::types::validate::validate_call_view;
use flow_core::types::write::call_view_to_json;
use flow_core::types::{reachable, CallView, Declarations, Param, Term, ToolDecl, TOOL_OWNER};

/// The views of one generic call.
#[derive(Debug, Clone, PartialEq)]
pub struct GenericViews {
    /// The concrete types view, validated.
    pub view: CallView,
    /// The `types` member.
    pub types: Json,
    /// The `schema` member.
    pub schema: Json,
}

/// Builds the views of a call of `tool` with `bindings` (one concrete term
/// per type parameter, in declaration order, resolved in `declarations`).
pub fn views(tool: &ToolDecl, declarations: &Declarations, bindings: &[Term]) -> Result<GenericViews> {
    if bindings.len() != tool.generic.len() {
        return Err(Error::new(
            Rule::Arity,
            format!(
                "{} takes {} type arguments ({}), not {}",
                tool.tool,
                tool.generic.len(),
                tool.generic.join(", "),
                bindings.len()
            ),
        ));
    }
    let concrete = |t: &Term| t.substitute(TOOL_OWNER, bindings);
    let params: Vec<Param> = tool.params.iter().map(|p| Param { name: p.name.clone(), ty: concrete(&p.ty) }).collect();
    let ok = concrete(&tool.ok);
    let err = concrete(&tool.err);
    let keep: std::collections::BTreeSet<String> =
        reachable(declarations, bindings.iter().chain(params.iter().map(|p| &p.ty)).chain([&ok, &err]))
            .into_iter()
            .map(str::to_owned)
            .collect();
    let view = CallView {
        bindings: tool.generic.iter().cloned().zip(bindings.iter().cloned()).collect(),
        params,
        ok,
        err,
        declarations: declarations
            .iter()
            .filter(|(id, _)| keep.contains(id.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    };
    validate_call_view(&view)?;
    let schema = schema_of(&view.ok, &view.declarations, SchemaForm::Describe, &[])?;
    Ok(GenericViews { types: call_view_to_json(&view), schema, view })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::parse::listing_from_text;
    use flow_core::types::{check_call_view, Prim, TypeSpec};
    use flow_core::Limits;

    #[test]
    fn views_agree_with_the_served_type_spec() {
        let listing =
            listing_from_text(include_bytes!("../../tests/examples/weather.tools.json"), &Limits::default()).unwrap();
        let echo = listing.tools.iter().find(|t| t.is_generic()).unwrap();
        let spec = TypeSpec::for_tool(&listing, &echo.tool).unwrap();
        let page =
            Term::Named { declaration: "5".into(), args: vec![Term::Named { declaration: "6".into(), args: vec![] }] };
        let v = views(echo, &listing.declarations, std::slice::from_ref(&page)).unwrap();
        check_call_view(&spec, &v.view).unwrap();
        flow_core::schema::check_call_schema(&v.view, &v.schema).unwrap();
        assert_eq!(v.view.declarations.keys().collect::<Vec<_>>(), ["5", "6"]);
        assert_eq!(v.view.ok, page);

        let v = views(echo, &listing.declarations, &[Term::Prim(Prim::Int)]).unwrap();
        assert_eq!(v.schema.to_canonical(), r#"{"type":"integer"}"#);
        assert!(v.view.declarations.is_empty());
        assert!(views(echo, &listing.declarations, &[]).unwrap_err().to_string().ends_with("[arity]"));
        let free = Term::Param { owner: TOOL_OWNER.into(), index: 0 };
        assert!(views(echo, &listing.declarations, &[free]).is_err());
    }
}
