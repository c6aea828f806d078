//! MCP's protocol versions and its two eras (`docs/research/mcp.md`).
//!
//! - The handshake era (2024-11-05 to 2025-11-25): an `initialize` request,
//!   then the `notifications/initialized` notification, then anything else.
//! - The modern era (2026-07-28): no handshake; every request carries
//!   `params._meta` with the protocol version and the client's capabilities,
//!   and `server/discover` says what a server supports.
//!
//! A stdio client that speaks both probes with `server/discover`: a result
//! keeps it modern; an error of any code, or no answer in time, sends it to
//! `initialize`. The probe is not keyed to one error code because servers
//! disagree on which one they send.

use flow_core::json::{Json, Object};

/// The modern era's one version.
pub(crate) const MODERN: &str = "2026-07-28";

/// The handshake era's versions, newest first: the first is the one asked
/// for in `initialize`; a server may answer with any of them. The methods the
/// adapter uses (`tools/list`, `tools/call`, `notifications/cancelled`) have
/// one shape in all of them; `structuredContent` came in 2025-06-18, and an
/// older server simply never sends it.
pub(crate) const HANDSHAKE: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// `_meta` key: the protocol version of a modern request.
pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities, on every modern request.
pub(crate) const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: who the client is (optional, recommended on every request).
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key of a modern result: who the server is.
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Which era a session speaks, with the version agreed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: `_meta` on every request.
    Modern,
    /// A handshake version the server answered `initialize` with.
    Handshake(String),
}

impl Era {
    /// The version text.
    pub fn version(&self) -> &str {
        match self {
            Era::Modern => MODERN,
            Era::Handshake(v) => v,
        }
    }

    /// Whether a handshake-era version is one this client knows.
    pub fn known_handshake(version: &str) -> bool {
        HANDSHAKE.contains(&version)
    }
}

/// Who a client or server is: `{"name", "version"}` (`Implementation`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Implementation {
    /// The implementation's name.
    pub name: String,
    /// The implementation's version.
    pub version: String,
}

impl Implementation {
    /// This library, as it names itself to MCP servers.
    pub fn flow_adapter() -> Implementation {
        Implementation { name: "flow-mcp-adapter".to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() }
    }

    /// The `{"name", "version"}` object.
    pub fn to_json(&self) -> Json {
        Json::object([("name", Json::str(self.name.as_str())), ("version", Json::str(self.version.as_str()))])
    }

    /// Reads `{"name", "version", ...}`; other members (title, icons) are
    /// for display and ignored.
    pub fn from_json(json: &Json) -> Option<Implementation> {
        let o = json.as_object()?;
        Some(Implementation {
            name: o.get("name")?.as_str()?.to_owned(),
            version: o.get("version")?.as_str()?.to_owned(),
        })
    }
}

/// The `_meta` object every modern request carries. The adapter declares no
/// optional client capability (no sampling, roots or elicitation), so a
/// server has nothing to ask it.
pub(crate) fn request_meta(client: &Implementation) -> Json {
    Json::object([
        (META_PROTOCOL_VERSION, Json::str(MODERN)),
        (META_CLIENT_CAPABILITIES, Json::Object(Object::new())),
        (META_CLIENT_INFO, client.to_json()),
    ])
}
