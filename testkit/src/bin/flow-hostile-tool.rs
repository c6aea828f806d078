//! flow-hostile-tool: a Tool process serving `flow_testkit::hostile::LISTING`
//! for the hostile-input tests.
//!
//! - `flow-hostile-tool`: the real stdio driver; each Tool echoes its
//!   argument. The server side of a hostile call is this process.
//! - `flow-hostile-tool --reply CASE`: reads and describes through the real
//!   server core, then answers every call with the hostile reply line of
//!   CASE, so that the host's reading of it can be measured.

use std::io::{BufReader, Write};
use std::process::ExitCode;

use flow_core::types::parse::listing_from_text;
use flow_core::Limits;
use flow_protocol::{Event, Frame, HandlerResult, LineReader, ServerCore};
use flow_runtime::StdioServer;
use flow_testkit::hostile::{self, reply_line};

fn main() -> ExitCode {
    let listing =
        listing_from_text(hostile::LISTING.as_bytes(), &Limits::default()).expect("the hostile listing is valid");
    let core = ServerCore::from_listing(&listing).expect("servable");
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            let mut server = StdioServer::new(core);
            for tool in &listing.tools {
                server = server.handle(&tool.tool, |call| HandlerResult::Ok(call.args[0].clone()));
            }
            match server.serve_stdio() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("flow-hostile-tool: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        [flag, name] if flag == "--reply" => {
            let case = hostile::case(name).unwrap_or_else(|| panic!("no hostile case {name}"));
            reply(core, case)
        }
        _ => {
            eprintln!("usage: flow-hostile-tool [--reply CASE]");
            ExitCode::FAILURE
        }
    }
}

fn reply(mut core: ServerCore, case: &hostile::Case) -> ExitCode {
    let mut frames = LineReader::new(BufReader::new(std::io::stdin().lock()), core.limits().max_bytes);
    let mut out = std::io::stdout().lock();
    while let Ok(Some(frame)) = frames.next_frame() {
        if matches!(frame, Frame::Unterminated(_)) {
            break;
        }
        for event in core.receive_frame(frame) {
            let line = match event {
                Event::Write(text) => text.into_bytes(),
                Event::Start(call) => reply_line(case, &call.key.run, &call.key.call),
                Event::Log(text) => {
                    eprintln!("flow-hostile-tool: {text}");
                    continue;
                }
                Event::Cancel(_) => continue,
            };
            if out.write_all(&line).and_then(|()| out.flush()).is_err() {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
