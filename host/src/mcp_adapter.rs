//! The adapter as a process: `flow-host mcp-adapter LISTING -- CMD ARGS...`
//! speaks the Flow protocol on its own stdin and stdout, through the same
//! [`ServerCore`] and [`StdioServer`] every toolkit serves through, so the
//! Flow side's rules (describe, args decoded before anything runs, (run,
//! call) bookkeeping, re-sent calls answered once) are not written twice.
//!
//! It starts the MCP server and lists its tools before it reads a line, and
//! describes the declarations the server offers a tool of the same NAME for,
//! from the listing, as a toolkit does. A server that cannot be started or
//! listed ends the adapter with an error before describe, so the host sees a
//! process that cannot be used rather than one that serves nothing.
//!
//! # BadReply across the process boundary
//!
//! A reply carries one of four outcomes; BadReply is the host's to decide and
//! is never sent. What the adapter cannot map is a call that reached the MCP
//! server with an answer nobody can read as the declared types: whether the
//! tool did what was asked is not known. So the process answers Unknown, its
//! reason the BadReply reason prefixed `BadReply: `. In process
//! (`flow_mcp::adapter`) the host gets BadReply itself.

use std::io::{Read, Write};
use std::sync::mpsc;

use flow_core::fingerprint::describe_entry;
use flow_core::types::Listing;
use flow_host::ProcessSpec;
use flow_protocol::CallOutcome;
use flow_protocol::{HandlerResult, ServedEntry, ServerCore, StartedCall};
use flow_runtime::StdioServer;

use flow_mcp::adapter::{offered, McpAdapter};
use flow_mcp::client::McpOptions;

/// The prefix of the Unknown reason that stands for BadReply.
pub(crate) const BAD_REPLY_PREFIX: &str = "BadReply: ";

/// A Flow outcome as a handler's result, BadReply as Unknown (see above).
pub(crate) fn handler_result(outcome: CallOutcome) -> HandlerResult {
    match outcome {
        CallOutcome::Ok(v) => HandlerResult::Ok(v),
        CallOutcome::Failed(v) => HandlerResult::Failed(v),
        CallOutcome::NotRun(why) => HandlerResult::NotRun(why),
        CallOutcome::Unknown(why) => HandlerResult::Unknown(why),
        CallOutcome::BadReply(why) => HandlerResult::Unknown(format!("{BAD_REPLY_PREFIX}{why}")),
    }
}

/// The server core and stdio driver serving `listing`'s declarations that
/// the adapter's server offers. Starts the server and lists its tools.
pub(crate) fn adapter_server(listing: &Listing, adapter: &McpAdapter) -> Result<StdioServer, String> {
    let connection = adapter.connection();
    let log = |text: &str| (connection.options().log)(text);
    let tools = connection
        .tools()
        .map_err(|why| format!("the MCP server `{}` cannot be used: {why}", connection.spec().display()))?;
    let split = offered(listing, &tools);
    for (tool, why) in &split.unbound {
        log(&format!("{tool} is unbound: {why}"));
    }
    let mut entries = Vec::new();
    for identity in &split.bound {
        let decl = listing.tool(identity).expect("offered from the listing");
        match describe_entry(decl, &listing.declarations) {
            Ok(entry) => {
                let member =
                    |k: &str| entry.as_object().and_then(|o| o.get(k)).cloned().expect("describe entry member");
                let fingerprint = member("fingerprint").as_str().expect("fingerprint text").to_owned();
                entries.push(ServedEntry { tool: identity.clone(), fingerprint, signature: member("signature") });
            }
            Err(e) => log(&format!("{identity} cannot be served: {e}")),
        }
    }
    let core = ServerCore::new(listing, entries).map_err(|e| e.to_string())?.with_limits(connection.options().limits);
    let served: Vec<String> = core.identities().map(str::to_owned).collect();
    let mut server = StdioServer::new(core);
    for identity in served {
        let decl = listing.tool(&identity).expect("served from the listing").clone();
        let adapter = adapter.clone();
        server = server.handle(&identity, move |call: StartedCall| handle(&adapter, &decl, call));
    }
    Ok(server)
}

/// One call, out to the MCP server, then its outcome, or a cancel first. It
/// blocks until the server answers, so the stdio driver soon runs these
/// Tools' calls on threads other than the one reading.
fn handle(adapter: &McpAdapter, decl: &flow_core::types::ToolDecl, call: StartedCall) -> HandlerResult {
    enum Event {
        Done(CallOutcome),
        Cancel,
    }
    let (tx, rx) = mpsc::channel();
    let done = tx.clone();
    let sent = adapter.call(&call.key.call, decl, &decl.params, &call.args, call.types.clone(), move |outcome| {
        let _ = done.send(Event::Done(outcome));
    });
    // The token's callback runs on the thread reading stdin, with the server
    // core locked: it only wakes this thread, which writes the cancel.
    call.cancel.on_cancel(move || {
        let _ = tx.send(Event::Cancel);
    });
    loop {
        match rx.recv() {
            Ok(Event::Done(outcome)) => return handler_result(outcome),
            Ok(Event::Cancel) => {
                if let Some(sent) = &sent {
                    adapter.cancel(sent);
                }
            }
            Err(_) => return HandlerResult::Unknown("the adapter lost track of the call".to_owned()),
        }
    }
}

/// Serves `listing` through the MCP server `spec` on `input` and `output`
/// until `input` ends and every call has replied, then stops the server and
/// waits until it has ended (killed after `options.stop_grace`), so that it
/// does not outlive the adapter process.
pub fn serve<R: Read + Send, W: Write + Send>(
    listing: &Listing,
    spec: ProcessSpec,
    options: McpOptions,
    input: R,
    output: W,
) -> Result<(), String> {
    let adapter = McpAdapter::new(spec, options);
    let server = adapter_server(listing, &adapter);
    let result = server.and_then(|server| server.serve(input, output).map_err(|e| e.to_string()));
    adapter.connection().shutdown();
    result
}

/// [`serve`] on stdin and stdout.
pub fn serve_stdio(listing: &Listing, spec: ProcessSpec, options: McpOptions) -> Result<(), String> {
    serve(listing, spec, options, std::io::stdin(), std::io::stdout())
}
