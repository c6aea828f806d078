//! The MCP message shapes the adapter uses, in both eras, readable and
//! writable both ways: the adapter writes requests and reads results, and an
//! MCP server built on this library (serving Flow Tools to MCP clients) reads
//! the same requests and writes the same results.
//!
//! Reading is strict about the members the adapter relies on (their presence
//! and JSON kind) and ignores every other member: MCP results carry many an
//! adapter has no use for (`annotations`, `icons`, `ttlMs`, `cacheScope`...),
//! and new ones arrive with each version. A refusal names the path from the
//! message root (`$.result.content[1].text`) and the rule `shape`.

use flow_core::error::{Error, Path, Result, Rule};
use flow_core::json::{self, Json, Object};

use super::version::Implementation;

fn shape(at: &Path, why: impl Into<String>) -> Error {
    Error::at(at.clone(), Rule::Shape, why)
}

fn object<'j>(json: &'j Json, at: &Path) -> Result<&'j Object> {
    json.as_object().ok_or_else(|| shape(at, format!("expected an object, found {}", json.kind_name())))
}

fn text(o: &Object, name: &str, at: &Path) -> Result<String> {
    match o.get(name) {
        Some(Json::String(s)) => Ok(s.clone()),
        Some(other) => Err(shape(&at.clone().key(name), format!("expected a string, found {}", other.kind_name()))),
        None => Err(Error::at(at.clone().key(name), Rule::MissingField, "missing")),
    }
}

fn optional_text(o: &Object, name: &str, at: &Path) -> Result<Option<String>> {
    match o.get(name) {
        None | Some(Json::Null) => Ok(None),
        Some(_) => text(o, name, at).map(Some),
    }
}

fn optional_object(o: &Object, name: &str, at: &Path) -> Result<Option<Json>> {
    match o.get(name) {
        None => Ok(None),
        Some(json @ Json::Object(_)) => Ok(Some(json.clone())),
        Some(other) => Err(shape(&at.clone().key(name), format!("expected an object, found {}", other.kind_name()))),
    }
}

fn put_text(o: &mut Object, name: &str, value: &Option<String>) {
    if let Some(v) = value {
        o.insert(name, Json::str(v.as_str()));
    }
}

/// `initialize` params (handshake era).
#[derive(Debug, Clone, PartialEq)]
pub struct InitializeParams {
    pub protocol_version: String,
    pub capabilities: Json,
    pub client_info: Implementation,
}

impl InitializeParams {
    pub fn to_json(&self) -> Json {
        Json::object([
            ("protocolVersion", Json::str(self.protocol_version.as_str())),
            ("capabilities", self.capabilities.clone()),
            ("clientInfo", self.client_info.to_json()),
        ])
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<InitializeParams> {
        let o = object(json, at)?;
        let client_info = o
            .get("clientInfo")
            .and_then(Implementation::from_json)
            .ok_or_else(|| shape(&at.clone().key("clientInfo"), "expected {\"name\", \"version\"}"))?;
        Ok(InitializeParams {
            protocol_version: text(o, "protocolVersion", at)?,
            capabilities: optional_object(o, "capabilities", at)?.unwrap_or(Json::Object(Object::new())),
            client_info,
        })
    }
}

/// The `initialize` result (handshake era).
#[derive(Debug, Clone, PartialEq)]
pub struct InitializeResult {
    pub protocol_version: String,
    pub capabilities: Json,
    pub server_info: Option<Implementation>,
    pub instructions: Option<String>,
}

impl InitializeResult {
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("protocolVersion", Json::str(self.protocol_version.as_str()));
        o.insert("capabilities", self.capabilities.clone());
        if let Some(info) = &self.server_info {
            o.insert("serverInfo", info.to_json());
        }
        put_text(&mut o, "instructions", &self.instructions);
        Json::Object(o)
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<InitializeResult> {
        let o = object(json, at)?;
        Ok(InitializeResult {
            protocol_version: text(o, "protocolVersion", at)?,
            capabilities: optional_object(o, "capabilities", at)?.unwrap_or(Json::Object(Object::new())),
            server_info: o.get("serverInfo").and_then(Implementation::from_json),
            instructions: optional_text(o, "instructions", at)?,
        })
    }
}

/// The `server/discover` result (modern era).
#[derive(Debug, Clone, PartialEq)]
pub struct DiscoverResult {
    pub supported_versions: Vec<String>,
    pub capabilities: Json,
    pub instructions: Option<String>,
}

impl DiscoverResult {
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert(
            "supportedVersions",
            Json::Array(self.supported_versions.iter().map(|v| Json::str(v.as_str())).collect()),
        );
        o.insert("capabilities", self.capabilities.clone());
        o.insert("resultType", Json::str("complete"));
        o.insert("cacheScope", Json::str("private"));
        // Required with cacheScope (`CacheableResult`); 0: fetch again at will.
        o.insert("ttlMs", Json::Number(flow_core::Number::from_i64(0)));
        put_text(&mut o, "instructions", &self.instructions);
        Json::Object(o)
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<DiscoverResult> {
        let o = object(json, at)?;
        let versions_at = at.clone().key("supportedVersions");
        let supported_versions = match o.get("supportedVersions") {
            Some(Json::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_str()
                        .map(str::to_owned)
                        .ok_or_else(|| shape(&versions_at.clone().index(i), "expected a string"))
                })
                .collect::<Result<Vec<_>>>()?,
            Some(other) => return Err(shape(&versions_at, format!("expected an array, found {}", other.kind_name()))),
            None => return Err(Error::at(versions_at, Rule::MissingField, "missing")),
        };
        Ok(DiscoverResult {
            supported_versions,
            capabilities: optional_object(o, "capabilities", at)?.unwrap_or(Json::Object(Object::new())),
            instructions: optional_text(o, "instructions", at)?,
        })
    }
}

/// One tool of a `tools/list` result.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The name a `tools/call` names it by.
    pub name: String,
    /// A title for people, if the server gives one.
    pub title: Option<String>,
    /// What it does, in the server's words.
    pub description: Option<String>,
    /// A JSON Schema whose root is `type: object`.
    pub input_schema: Json,
    /// A JSON Schema of its structured result, if the server declares one.
    pub output_schema: Option<Json>,
}

impl Tool {
    /// The tool as a `tools/list` result writes it.
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("name", Json::str(self.name.as_str()));
        put_text(&mut o, "title", &self.title);
        put_text(&mut o, "description", &self.description);
        o.insert("inputSchema", self.input_schema.clone());
        if let Some(schema) = &self.output_schema {
            o.insert("outputSchema", schema.clone());
        }
        Json::Object(o)
    }

    /// A tool read from a `tools/list` result, refused at `at` when its
    /// shape is wrong.
    pub fn from_json(json: &Json, at: &Path) -> Result<Tool> {
        let o = object(json, at)?;
        Ok(Tool {
            name: text(o, "name", at)?,
            title: optional_text(o, "title", at)?,
            description: optional_text(o, "description", at)?,
            input_schema: optional_object(o, "inputSchema", at)?
                .ok_or_else(|| Error::at(at.clone().key("inputSchema"), Rule::MissingField, "missing"))?,
            output_schema: optional_object(o, "outputSchema", at)?,
        })
    }
}

/// `tools/list` params: the cursor of the page asked for.
pub fn list_tools_params(cursor: Option<&str>) -> Object {
    let mut o = Object::new();
    if let Some(cursor) = cursor {
        o.insert("cursor", Json::str(cursor));
    }
    o
}

/// One page of `tools/list`.
#[derive(Debug, Clone, PartialEq)]
pub struct ListToolsResult {
    pub tools: Vec<Tool>,
    /// Present when there are more pages.
    pub next_cursor: Option<String>,
    /// Entries that are not tools, and why: a reader skips them rather than
    /// lose every other tool of the page.
    pub skipped: Vec<String>,
}

impl ListToolsResult {
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("tools", Json::Array(self.tools.iter().map(Tool::to_json).collect()));
        put_text(&mut o, "nextCursor", &self.next_cursor);
        Json::Object(o)
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<ListToolsResult> {
        let o = object(json, at)?;
        let tools_at = at.clone().key("tools");
        let entries = match o.get("tools") {
            Some(Json::Array(entries)) => entries,
            Some(other) => return Err(shape(&tools_at, format!("expected an array, found {}", other.kind_name()))),
            None => return Err(Error::at(tools_at, Rule::MissingField, "missing")),
        };
        let mut tools = Vec::with_capacity(entries.len());
        let mut skipped = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            match Tool::from_json(entry, &tools_at.clone().index(i)) {
                Ok(tool) => tools.push(tool),
                Err(e) => skipped.push(e.to_string()),
            }
        }
        Ok(ListToolsResult { tools, next_cursor: optional_text(o, "nextCursor", at)?, skipped })
    }
}

/// `tools/call` params.
#[derive(Debug, Clone, PartialEq)]
pub struct CallToolParams {
    pub name: String,
    pub arguments: Object,
}

impl CallToolParams {
    pub fn to_json(&self) -> Object {
        let mut o = Object::new();
        o.insert("name", Json::str(self.name.as_str()));
        o.insert("arguments", Json::Object(self.arguments.clone()));
        o
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<CallToolParams> {
        let o = object(json, at)?;
        let arguments = match o.get("arguments") {
            None | Some(Json::Null) => Object::new(),
            Some(Json::Object(a)) => a.clone(),
            Some(other) => {
                return Err(shape(
                    &at.clone().key("arguments"),
                    format!("expected an object, found {}", other.kind_name()),
                ))
            }
        };
        Ok(CallToolParams { name: text(o, "name", at)?, arguments })
    }
}

/// One block of a `tools/call` result's `content`.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// `{"type": "text", "text": ...}`.
    Text(String),
    /// Any other block (image, audio, resource, resource_link), kept as sent.
    Other { kind: String, block: Json },
}

impl Content {
    pub fn to_json(&self) -> Json {
        match self {
            Content::Text(t) => Json::object([("type", Json::str("text")), ("text", Json::str(t.as_str()))]),
            Content::Other { block, .. } => block.clone(),
        }
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<Content> {
        let o = object(json, at)?;
        let kind = text(o, "type", at)?;
        if kind == "text" {
            Ok(Content::Text(text(o, "text", at)?))
        } else {
            Ok(Content::Other { kind, block: json.clone() })
        }
    }
}

/// A `tools/call` result.
#[derive(Debug, Clone, PartialEq)]
pub struct CallToolResult {
    pub content: Vec<Content>,
    pub structured_content: Option<Json>,
    /// `isError`; absent is false.
    pub is_error: bool,
    /// The modern era's `resultType`: `complete` for a finished call, another
    /// value (`input_required`) for one that waits on the client. Absent in
    /// the handshake era, which means `complete`.
    pub result_type: Option<String>,
}

impl CallToolResult {
    /// Appends the canonical text of [`CallToolResult::to_json`], written in
    /// place: a response's result is most of its line, and the tree would
    /// copy each text and value once more before writing them.
    pub fn write_canonical(&self, out: &mut String) {
        // The members in canonical order: content, isError, resultType, structuredContent.
        out.push_str("{\"content\":[");
        for (i, block) in self.content.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match block {
                Content::Text(text) => {
                    out.push_str("{\"text\":");
                    json::write_string(out, text);
                    out.push_str(",\"type\":\"text\"}");
                }
                Content::Other { block, .. } => json::write_canonical(out, block),
            }
        }
        out.push(']');
        if self.is_error {
            out.push_str(",\"isError\":true");
        }
        if let Some(kind) = &self.result_type {
            out.push_str(",\"resultType\":");
            json::write_string(out, kind);
        }
        if let Some(structured) = &self.structured_content {
            out.push_str(",\"structuredContent\":");
            json::write_canonical(out, structured);
        }
        out.push('}');
    }

    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("content", Json::Array(self.content.iter().map(Content::to_json).collect()));
        if let Some(s) = &self.structured_content {
            o.insert("structuredContent", s.clone());
        }
        if self.is_error {
            o.insert("isError", Json::Bool(true));
        }
        put_text(&mut o, "resultType", &self.result_type);
        Json::Object(o)
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<CallToolResult> {
        let o = object(json, at)?;
        let content_at = at.clone().key("content");
        let content = match o.get("content") {
            Some(Json::Array(blocks)) => blocks
                .iter()
                .enumerate()
                .map(|(i, b)| Content::from_json(b, &content_at.clone().index(i)))
                .collect::<Result<Vec<_>>>()?,
            Some(other) => return Err(shape(&content_at, format!("expected an array, found {}", other.kind_name()))),
            // Required by every version; a result without it may still carry
            // structuredContent, and the mapping says what is missing.
            None => Vec::new(),
        };
        let is_error = match o.get("isError") {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(other) => {
                return Err(shape(
                    &at.clone().key("isError"),
                    format!("expected a boolean, found {}", other.kind_name()),
                ))
            }
        };
        Ok(CallToolResult {
            content,
            structured_content: o.get("structuredContent").cloned(),
            is_error,
            result_type: optional_text(o, "resultType", at)?,
        })
    }
}

/// `notifications/cancelled` params.
#[derive(Debug, Clone, PartialEq)]
pub struct CancelledParams {
    pub request_id: Json,
    pub reason: Option<String>,
}

impl CancelledParams {
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("requestId", self.request_id.clone());
        put_text(&mut o, "reason", &self.reason);
        Json::Object(o)
    }

    pub fn from_json(json: &Json, at: &Path) -> Result<CancelledParams> {
        let o = object(json, at)?;
        let request_id = match o.get("requestId") {
            Some(id @ (Json::String(_) | Json::Number(_))) => id.clone(),
            _ => return Err(shape(&at.clone().key("requestId"), "expected a string or number")),
        };
        Ok(CancelledParams { request_id, reason: optional_text(o, "reason", at)? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::json::parse_str;
    use flow_core::Limits;

    #[test]
    fn a_call_result_written_in_place_is_its_tree_s_canonical_text() {
        let image = Content::Other {
            kind: "image".to_owned(),
            block: j(r#"{"type":"image","data":"AA==","mimeType":"image/png"}"#),
        };
        let results = [
            CallToolResult { content: Vec::new(), structured_content: None, is_error: false, result_type: None },
            CallToolResult {
                content: vec![Content::Text("{\"result\":\"h\\u0000\\\"\u{e9}\"}".to_owned())],
                structured_content: Some(j(r#"{"result":"h\u0000\"\u00e9","z":[1,2.50,{"b":1,"a":null}]}"#)),
                is_error: false,
                result_type: Some("complete".to_owned()),
            },
            CallToolResult {
                content: vec![Content::Text("NotRun: x\n".to_owned()), image],
                structured_content: None,
                is_error: true,
                result_type: None,
            },
        ];
        for result in &results {
            let mut written = String::new();
            result.write_canonical(&mut written);
            assert_eq!(written, result.to_json().to_canonical());
        }
    }

    fn j(text: &str) -> Json {
        parse_str(text, &Limits::default()).unwrap()
    }

    fn at() -> Path {
        Path::root().key("result")
    }

    #[test]
    fn each_shape_reads_back_what_it_writes() {
        let tool = Tool {
            name: "get-sum".into(),
            title: Some("Sum".into()),
            description: None,
            input_schema: j(r#"{"type":"object"}"#),
            output_schema: Some(j(r#"{"type":"object","properties":{}}"#)),
        };
        let page = ListToolsResult { tools: vec![tool], next_cursor: Some("2".into()), skipped: vec![] };
        assert_eq!(ListToolsResult::from_json(&page.to_json(), &at()).unwrap(), page);
        let result = CallToolResult {
            content: vec![
                Content::Text("{}".into()),
                Content::Other {
                    kind: "image".into(),
                    block: j(r#"{"type":"image","data":"","mimeType":"image/png"}"#),
                },
            ],
            structured_content: Some(j("{}")),
            is_error: true,
            result_type: Some("complete".into()),
        };
        assert_eq!(CallToolResult::from_json(&result.to_json(), &at()).unwrap(), result);
        let init = InitializeParams {
            protocol_version: "2025-11-25".into(),
            capabilities: j("{}"),
            client_info: Implementation::flow_adapter(),
        };
        assert_eq!(InitializeParams::from_json(&init.to_json(), &at()).unwrap(), init);
        let r = InitializeResult {
            protocol_version: "2025-06-18".into(),
            capabilities: j(r#"{"tools":{}}"#),
            server_info: None,
            instructions: Some("x".into()),
        };
        assert_eq!(InitializeResult::from_json(&r.to_json(), &at()).unwrap(), r);
        let d =
            DiscoverResult { supported_versions: vec!["2026-07-28".into()], capabilities: j("{}"), instructions: None };
        assert_eq!(DiscoverResult::from_json(&d.to_json(), &at()).unwrap(), d);
        let c = CancelledParams { request_id: Json::str("c1"), reason: None };
        assert_eq!(CancelledParams::from_json(&c.to_json(), &at()).unwrap(), c);
        let p = CallToolParams { name: "echo".into(), arguments: Object::new() };
        assert_eq!(CallToolParams::from_json(&Json::Object(p.to_json()), &at()).unwrap(), p);
    }

    #[test]
    fn refusals_name_the_path() {
        let err = |r: Result<CallToolResult>| r.unwrap_err().to_string();
        assert_eq!(
            err(CallToolResult::from_json(&j(r#"{"content":[{"type":"text","text":1}]}"#), &at())),
            "$.result.content[0].text: expected a string, found a number [shape]"
        );
        assert_eq!(
            err(CallToolResult::from_json(&j(r#"{"content":[],"isError":"yes"}"#), &at())),
            "$.result.isError: expected a boolean, found a string [shape]"
        );
        assert!(err(CallToolResult::from_json(&j("[]"), &at())).starts_with("$.result: expected an object"));
        // A page keeps its good tools and says which entries it skipped.
        let page =
            ListToolsResult::from_json(&j(r#"{"tools":[{"name":"a","inputSchema":{}},{"name":7},3]}"#), &at()).unwrap();
        assert_eq!(page.tools.len(), 1);
        assert_eq!(
            page.skipped,
            [
                "$.result.tools[1].name: expected a string, found a number [shape]",
                "$.result.tools[2]: expected an object, found a number [shape]"
            ]
        );
        assert!(ListToolsResult::from_json(&j(r#"{"tools":{}}"#), &at()).is_err());
    }
}
