//! The runtime's threads: the reader drives the core from stdin and writes its
//! lines, queues plain handlers' calls on the [`Pool`]; the dispatcher hands
//! async handlers' calls and cancels to Python in batches.

use std::io::{BufReader, Write};
use std::sync::Arc;

use flow_protocol::server::HandlerResult;
use flow_protocol::{CallKey, Event, LineReader};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::call::{self, Call};
use super::pool::Pool;
use super::{lock, Shared};

/// The protocol's output on a file descriptor the runtime owns from now on.
#[cfg(unix)]
pub(super) fn protocol_output(fd: i32) -> PyResult<Box<dyn Write + Send>> {
    use std::os::fd::FromRawFd;
    if fd < 0 {
        return Err(pyo3::exceptions::PyValueError::new_err("out_fd must be a file descriptor"));
    }
    // SAFETY: the caller hands this descriptor over (the runtime dups stdout
    // for it and never uses it otherwise); the File closes it when dropped.
    Ok(Box::new(unsafe { std::fs::File::from_raw_fd(fd) }))
}

#[cfg(not(unix))]
pub(super) fn protocol_output(_fd: i32) -> PyResult<Box<dyn Write + Send>> {
    Ok(Box::new(std::io::stdout()))
}

/// What the reader hands the dispatcher, in the order it read them.
enum Handoff {
    Start(Box<flow_protocol::StartedCall>),
    Cancel(CallKey),
    Done,
}

/// Reads stdin and drives the core; a plain handler's call goes to the pool,
/// everything else that needs Python to the dispatcher thread, which takes the
/// GIL once per batch rather than once per line: under load the GIL is busy,
/// and each wait for it costs a switch.
pub(super) fn read(
    shared: Arc<Shared>,
    pool: Arc<Pool>,
    is_async: Vec<bool>,
    dispatch: Py<PyAny>,
    cancel: Py<PyAny>,
    done: Py<PyAny>,
) {
    let (tx, rx) = std::sync::mpsc::channel::<Handoff>();
    let dispatcher = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("flow-tool-dispatch".into())
            .spawn(move || dispatch_loop(shared, rx, dispatch, cancel, done))
            .expect("a thread can be started")
    };
    let any_async = is_async.iter().any(|&a| a);
    let limit = lock(&shared.core).limits().max_bytes;
    let mut reader = LineReader::new(BufReader::new(std::io::stdin()), limit);
    loop {
        let frame = match reader.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                eprintln!("flow tool: reading stdin failed: {e}");
                break;
            }
        };
        let events = shared.in_flight.receive(&shared.core, frame);
        for event in events {
            match event {
                Event::Write(line) => shared.write(&line),
                Event::Log(text) => eprintln!("flow tool: {text}"),
                // The token is set already (what a plain handler reads); a
                // plain handler's call still queued never runs; the
                // dispatcher cancels an async handler's task.
                Event::Cancel(key) => {
                    if let Some(call) = pool.unqueue(&key) {
                        let reason = "cancelled before it started: it was waiting for a thread".to_owned();
                        shared.finish(&call.key, HandlerResult::NotRun(reason));
                    } else if any_async {
                        let _ = tx.send(Handoff::Cancel(key));
                    }
                }
                Event::Start(started) if is_async[started.tool] => {
                    let _ = tx.send(Handoff::Start(started));
                }
                Event::Start(started) => pool.push(started),
            }
        }
    }
    let _ = tx.send(Handoff::Done);
    let _ = dispatcher.join();
}

fn dispatch_loop(
    shared: Arc<Shared>,
    rx: std::sync::mpsc::Receiver<Handoff>,
    dispatch: Py<PyAny>,
    cancel: Py<PyAny>,
    done: Py<PyAny>,
) {
    let mut running: std::collections::HashMap<CallKey, Py<Call>> = std::collections::HashMap::new();
    while let Ok(first) = rx.recv() {
        let batch: Vec<Handoff> = std::iter::once(first).chain(rx.try_iter()).collect();
        let finished = Python::attach(|py| {
            running.retain(|_, c| !*lock(&c.get().finished));
            // Started calls go to Python in one list per batch; a cancel or
            // the end first hands over what came before it, keeping order.
            let mut starts: Vec<(Py<Call>, Bound<'_, PyList>)> = Vec::new();
            let flush = |starts: &mut Vec<(Py<Call>, Bound<'_, PyList>)>| {
                if starts.is_empty() {
                    return;
                }
                let keys: Vec<CallKey> = starts.iter().map(|(c, _)| c.get().key.clone()).collect();
                let batch = match PyList::new(py, starts.drain(..)) {
                    Ok(batch) => batch,
                    Err(e) => {
                        e.print(py);
                        return;
                    }
                };
                if let Err(e) = dispatch.call1(py, (batch,)) {
                    e.print(py);
                    let reason = format!("the runtime could not start the handler: {e}");
                    for key in keys {
                        let reason = reason.clone();
                        py.detach(|| shared.finish(&key, HandlerResult::Error(reason)));
                    }
                }
            };
            for handoff in batch {
                match handoff {
                    Handoff::Done => {
                        flush(&mut starts);
                        if let Err(e) = done.call0(py) {
                            e.print(py);
                        }
                        return true;
                    }
                    Handoff::Cancel(key) => {
                        flush(&mut starts);
                        if let Some(call) = running.get(&key) {
                            if let Err(e) = cancel.call1(py, (call.clone_ref(py),)) {
                                e.print(py);
                            }
                        }
                    }
                    Handoff::Start(started) => {
                        let key = started.key.clone();
                        match call::start(py, &shared, *started) {
                            Ok((call, args)) => {
                                running.insert(key, call.clone_ref(py));
                                starts.push((call, args));
                            }
                            Err(e) => {
                                let reason = format!("the runtime could not convert the args: {e}");
                                py.detach(|| shared.finish(&key, HandlerResult::Error(reason)));
                            }
                        }
                    }
                }
            }
            flush(&mut starts);
            false
        });
        if finished {
            break;
        }
    }
}
