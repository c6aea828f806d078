//! The Tools a [`ServerCore`] serves, as MCP tools: what `tools/list` says of
//! each, and the types a `tools/call` of each is decoded and checked at.
//!
//! - The name is the Tool's NAME (the last part of its identity), the
//!   description its doc, the schemas its own ([`super::schemas`]). Two
//!   served Tools with one NAME cannot both be MCP tools: the front refuses
//!   to start.
//! - A generic Tool is served with each type parameter bound to json.Value.
//!   An MCP client knows no Flow types and sends no types view, and any JSON
//!   it sends is a json.Value; the Tool's author gets that JSON as the type
//!   parameter's value, as with any call, through a view that passes the
//!   same checks a host's view does (`check_call_view`, `check_call_schema`).

use std::collections::HashMap;
use std::sync::Arc;

use flow_core::error::{Error, Result};
use flow_core::json::Json;
use flow_core::schema::{check_call_schema, schema_of, SchemaForm};
use flow_core::types::{check_call_view, CallView, Param, Prim, Term, TOOL_OWNER};
use flow_protocol::server::{CallTypes, ServerCore};

use super::messages::Tool;
use super::schemas::{duplicate_name, input_schema, output_schema};

/// A generic Tool's view with every type parameter bound to json.Value, and
/// its success schema: what each of its MCP calls carries.
#[derive(Debug, Clone)]
pub struct JsonView {
    pub view: CallView,
    pub schema: Json,
}

/// One served Tool as an MCP tool.
#[derive(Debug, Clone)]
pub struct McpTool {
    /// The Tool's index in the server core.
    pub index: usize,
    /// Its `tools/list` entry.
    pub listed: Tool,
    /// Results are `{"result": value}` (the success type is no object).
    pub wrapped: bool,
    /// The (concrete) parameters, in order.
    pub params: Vec<Param>,
    /// The types each call is decoded and checked at.
    pub types: Arc<CallTypes>,
    pub generic: Option<JsonView>,
}

/// The MCP tools of every Tool `core` serves, in its order, and their
/// indices by name.
pub fn mcp_tools(core: &ServerCore) -> Result<(Vec<McpTool>, HashMap<String, usize>)> {
    let mut tools = Vec::with_capacity(core.tool_count());
    let mut by_name: HashMap<String, usize> = HashMap::new();
    for index in 0..core.tool_count() {
        let decl = core.tool_decl(index);
        let name = decl.name().to_owned();
        if let Some(&first) = by_name.get(&name) {
            return Err(duplicate_name(&name, &tools_identity(core, &tools, first), &decl.tool));
        }
        let tool = mcp_tool(core, index).map_err(|e| within(e, &decl.tool))?;
        by_name.insert(name, tools.len());
        tools.push(tool);
    }
    Ok((tools, by_name))
}

fn tools_identity(core: &ServerCore, tools: &[McpTool], at: usize) -> String {
    core.tool_decl(tools[at].index).tool.clone()
}

fn within(error: Error, identity: &str) -> Error {
    Error { message: format!("{identity} cannot be served over MCP: {}", error.message), ..error }
}

fn mcp_tool(core: &ServerCore, index: usize) -> Result<McpTool> {
    let decl = core.tool_decl(index);
    let spec = core.tool_spec(index);
    let (params, ok, types, generic) = match core.tool_types(index) {
        Some(types) => (decl.params.clone(), decl.ok.clone(), types.clone(), None),
        None => {
            let bound: Vec<Term> = decl.generic.iter().map(|_| Term::Prim(Prim::JsonValue)).collect();
            let bind = |t: &Term| t.substitute(TOOL_OWNER, &bound);
            let view = CallView {
                bindings: decl.generic.iter().cloned().zip(bound.iter().cloned()).collect(),
                params: decl.params.iter().map(|p| Param { name: p.name.clone(), ty: bind(&p.ty) }).collect(),
                ok: bind(&decl.ok),
                err: bind(&decl.err),
                declarations: spec.declarations.clone(),
            };
            check_call_view(spec, &view)?;
            let schema = schema_of(&view.ok, &view.declarations, SchemaForm::Describe, &[])?;
            check_call_schema(&view, &schema)?;
            let types = Arc::new(CallTypes::compile(&view.declarations, &view.params, &view.ok, &view.err)?);
            (view.params.clone(), view.ok.clone(), types, Some(JsonView { view, schema }))
        }
    };
    let input = input_schema(&params, &spec.declarations)?;
    let (output, wrapped) = output_schema(&ok, &spec.declarations)?;
    let listed = Tool {
        name: decl.name().to_owned(),
        title: None,
        description: decl.doc.clone(),
        input_schema: input,
        output_schema: Some(output),
    };
    Ok(McpTool { index, listed, wrapped, params, types, generic })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");

    #[test]
    fn every_weather_tool_is_listed_and_echo_takes_json() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let core = ServerCore::from_listing(&listing).unwrap();
        let (tools, by_name) = mcp_tools(&core).unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.listed.name.as_str()).collect();
        assert_eq!(names, ["get_forecast", "list_stations", "station_history", "echo"]);
        assert_eq!(by_name["echo"], 3);
        let echo = &tools[3];
        assert_eq!(echo.listed.description.as_deref(), Some("Returns its argument."));
        assert_eq!(
            echo.listed.input_schema.to_canonical(),
            r#"{"additionalProperties":false,"properties":{"value":{}},"required":["value"],"type":"object"}"#
        );
        assert_eq!(
            echo.listed.output_schema.as_ref().unwrap().to_canonical(),
            r#"{"properties":{"result":{}},"required":["result"],"type":"object"}"#
        );
        assert!(echo.wrapped);
        let view = &echo.generic.as_ref().unwrap().view;
        assert_eq!(view.bindings, [("T".to_owned(), Term::Prim(Prim::JsonValue))]);
        assert_eq!(tools[1].listed.description, None);
        assert!(!tools[0].wrapped && !tools[1].wrapped && tools[2].wrapped);
    }

    #[test]
    fn two_tools_with_one_name_are_refused() {
        let text = String::from_utf8(WEATHER.to_vec())
            .unwrap()
            .replace("weather.flow.list_stations", "other.flow.get_forecast");
        let listing = listing_from_text(text.as_bytes(), &Limits::default()).unwrap();
        let core = ServerCore::from_listing(&listing).unwrap();
        let err = mcp_tools(&core).unwrap_err().to_string();
        assert!(err.contains("weather.flow.get_forecast and github.com/acme/weather@1.2.0/other.flow.get_forecast are both named \"get_forecast\""), "{err}");
        assert!(err.ends_with("[duplicate-name]"), "{err}");
    }
}
