//! flow-test-tool: serves the example weather listing
//! (`tests/examples/weather.tools.json`) through the stdio driver, with the
//! simple handlers of `weather.rs`. Try it:
//!
//! ```sh
//! flow-host describe -- flow-test-tool
//! ```

#[path = "../weather.rs"]
mod weather;

use std::process::ExitCode;

use flow_protocol::ServerCore;
use flow_runtime::StdioServer;

fn main() -> ExitCode {
    let listing = weather::listing();
    let core = match ServerCore::from_listing(&listing) {
        Ok(core) => core,
        Err(e) => {
            eprintln!("flow-test-tool: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut server = StdioServer::new(core);
    for tool in &listing.tools {
        server = server.handle(&tool.tool, weather::handle);
    }
    match server.serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("flow-test-tool: {e}");
            ExitCode::FAILURE
        }
    }
}
