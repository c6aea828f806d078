//! The echo Tool the protocol benchmark calls: `bench.flow.echo(text: Text)
//! -> Result<Text, Never>`, served through the stdio driver.

use flow_core::types::parse::listing_from_text;
use flow_core::Limits;
use flow_protocol::{HandlerResult, ServerCore};
use flow_runtime::StdioServer;

pub const LISTING: &str = r#"{"data":"0.1","tools":[{"tool":"bench.flow.echo","doc":null,"generic":[],"params":[{"name":"text","type":"Text"}],"ok":"Text","err":"Never"}],"declarations":{}}"#;

fn main() {
    let listing = listing_from_text(LISTING.as_bytes(), &Limits::default()).expect("valid listing");
    let core = ServerCore::from_listing(&listing).expect("servable");
    StdioServer::new(core)
        .handle("bench.flow.echo", |call| HandlerResult::Ok(call.args[0].clone()))
        .serve_stdio()
        .expect("served");
}
