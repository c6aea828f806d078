//! Real MCP servers for the adapter's tests, installed by `make mcp-servers`
//! from the project's own pin files. A test never skips for want of them: it
//! fails saying which make target installs them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use flow_core::json::{parse_str, Json};
use flow_core::manifest::Runner;
use flow_core::types::parse::listing_from_text;
use flow_core::types::Listing;
use flow_core::Limits;
use flow_host::{Binding, Host, HostOptions, Refusal, Resolver};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn installed(path: PathBuf, what: &str) -> String {
    assert!(
        path.exists(),
        "{} is missing: {what} is installed by `make mcp-servers` (run it from the repository root)",
        path.display()
    );
    path.to_str().unwrap().to_owned()
}

/// The program and arguments that start the Python SDK test server.
pub fn python_server_words() -> Vec<String> {
    let python = installed(repo().join(".venv-mcp/bin/python"), "the MCP Python SDK's venv");
    vec![python, repo().join("tests/mcp/python_server.py").to_str().unwrap().to_owned()]
}

/// The program and arguments that start @modelcontextprotocol/server-everything on stdio.
pub fn everything_words() -> Vec<String> {
    let bin = installed(
        repo().join("tests/mcp/node_modules/.bin/mcp-server-everything"),
        "@modelcontextprotocol/server-everything",
    );
    vec![bin, "stdio".to_owned()]
}

fn command(words: &[String]) -> String {
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The Python SDK test server as a flow.toml command (shell words).
pub fn python_server() -> String {
    command(&python_server_words())
}

/// server-everything as a flow.toml command.
pub fn everything() -> String {
    command(&everything_words())
}

pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

pub fn listing(file: &str) -> Listing {
    let bytes = std::fs::read(repo().join("tests/mcp").join(file)).unwrap();
    listing_from_text(&bytes, &Limits::default()).unwrap()
}

pub fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap()
}

/// Every Tool of `listing` bound, by host override, to the MCP server `command`.
pub fn resolver(listing: &Listing, command: &str) -> Resolver {
    let mut resolver = Resolver::default();
    for tool in &listing.tools {
        let binding = Binding { runner: Runner::Mcp(command.to_owned()), dir: repo(), origin: "test override".into() };
        resolver.overrides.insert(tool.tool.clone(), binding);
    }
    resolver
}

pub struct Setup {
    pub host: Host,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Setup {
    pub fn logged(&self, needle: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(needle))
    }
}

/// Host options whose log (the servers' stderr included) is kept.
pub fn options() -> (HostOptions, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let options =
        HostOptions { log: Arc::new(move |l| sink.lock().unwrap().push(l.to_owned())), ..HostOptions::default() };
    (options, log)
}

pub fn try_bind(listing: &Listing, command: &str) -> Result<Setup, Vec<Refusal>> {
    let (options, log) = options();
    Host::bind(listing, &resolver(listing, command), options).map(|host| Setup { host, log })
}

pub fn bind(listing: &Listing, command: &str) -> Setup {
    try_bind(listing, command).unwrap_or_else(|r| panic!("{r:#?}"))
}

/// A scratch directory holding a flow.toml with `text`.
pub fn manifest(name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("flow-mcp-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("flow.toml"), text).unwrap();
    dir
}

/// A TOML basic string holding `text`.
pub fn toml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
