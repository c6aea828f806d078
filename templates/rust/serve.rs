{{ header }}
//! Serving the {{ project }} Tools on the Rust Tool runtime (flow_runtime): each
//! call's args decode from their JSON straight into the method's Rust
//! types, with the server core's rules (a generic Tool's the core decodes,
//! at the call's types), NotRun when they do not decode. The core answers
//! `describe` from [`crate::metadata`], runs each call's method on the
//! thread that read it (another thread takes over reading when a method
//! runs long), answers a call sent again without running it twice, and
//! checks each result before writing it (Unknown when it is not of the
//! declared type, or the method panicked).

use std::sync::Arc;

use flow_runtime::{HandlerResult, StartedCall, StdioServer};

use crate::metadata;
use crate::tools::{{ trait_name }};

/// Serves `tools` on stdin and stdout until stdin ends and every running
/// call has replied: the Tool process. It speaks the Flow Tool process
/// protocol, or with `--mcp` on its command line serves the Tools to MCP
/// clients.
pub fn serve(tools: impl {{ trait_name }}) -> std::io::Result<()> {
    flow_runtime::serve_process(server(tools)?)
}

/// A server of `tools`, to serve any input and output
/// ([`StdioServer::serve`]). Refuses metadata that is not its listing's.
pub fn server<T: {{ trait_name }}>(tools: T) -> std::io::Result<StdioServer> {
    let handlers: [(&str, Handler<T>); {{ methods.len() }}] = {{ handlers }};
    let tools = Arc::new(tools);
    let mut server = flow_runtime::typed_server(metadata::LISTING, metadata::DESCRIBE)?;
    for (identity, handler) in handlers {
        let tools = Arc::clone(&tools);
        server = server.handle(identity, move |call| handler(&tools, call));
    }
    Ok(server)
}

/// A Tool's handler: converts a started call's args, runs the Tool's method
/// on them, and turns its result into the reply.
type Handler<T> = fn(&T, StartedCall) -> HandlerResult;
{%- for method in methods %}

/// Runs [`{{ trait_name }}::{{ method.method }}`] for a started call.
fn {{ method.handler }}<T: {{ trait_name }}>(tools: &T, call: StartedCall) -> HandlerResult {
    flow_runtime::{{ method.handle }}(call, |ctx, {{ method.args_binding }}| {
        {{ method.handler_call }}
        Ok(ctx.reply_direct(flow_runtime::block_on(reply)))
    })
}
{%- endfor %}
