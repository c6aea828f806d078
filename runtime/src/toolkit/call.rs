//! What a Tool method gets beside its args: the call's identity,
//! cancellation, and for a generic Tool the validated types view, the success
//! schema and codecs for the concrete types (`host-boundary.md`, "Toolkits").

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};

use std::cell::Cell;

use crate::codec::{resolve, CanonicalText, IntoValue, NeedsCheck};
use flow_core::error::{Error, Result, Rule};
use flow_core::json::Json;
use flow_core::types::CallView;
use flow_protocol::{CallKey, CallTypes, CancelToken, GenericCall, HandlerResult};

use super::codec::Codec;

/// One call of a Tool, as its method sees it.
pub struct Call {
    key: CallKey,
    cancel: CancelToken,
    /// The declared types of this call (for a generic call, the concrete ones).
    types: Arc<CallTypes>,
    generic: Option<GenericCall>,
    /// Codecs of the type parameters' concrete types, made when first asked for.
    bindings: Vec<OnceLock<Result<Codec>>>,
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call").field("key", &self.key).field("generic", &self.generic.is_some()).finish_non_exhaustive()
    }
}

impl Call {
    pub(crate) fn new(key: CallKey, cancel: CancelToken, types: Arc<CallTypes>, generic: Option<GenericCall>) -> Call {
        let bindings = generic.as_ref().map_or(0, |g| g.view.bindings.len());
        Call { key, cancel, types, generic, bindings: (0..bindings).map(|_| OnceLock::new()).collect() }
    }

    /// The (run, call) pair: the call's only identity. A call the host sends
    /// again after a crash has the same pair, and is answered without running
    /// the method again.
    pub fn key(&self) -> &CallKey {
        &self.key
    }

    /// The host's run id.
    pub fn run_id(&self) -> &str {
        &self.key.run
    }

    /// The call's history id within the run.
    pub fn call_id(&self) -> &str {
        &self.key.call
    }

    /// Whether the host asked to stop work on this call. A cancel proves
    /// nothing and asks for nothing in particular: what to stop, and what to
    /// reply, is the method's to decide.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// A future that completes when the host cancels this call.
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled { token: &self.cancel, slot: None }
    }

    /// Runs `work` until it completes (`Some`) or the call is cancelled
    /// (`None`, and `work` is dropped).
    pub async fn until_cancelled<F: Future>(&self, work: F) -> Option<F::Output> {
        let mut work = std::pin::pin!(work);
        let mut cancelled = std::pin::pin!(self.cancelled());
        std::future::poll_fn(|cx| {
            if let Poll::Ready(output) = work.as_mut().poll(cx) {
                return Poll::Ready(Some(output));
            }
            cancelled.as_mut().poll(cx).map(|()| None)
        })
        .await
    }

    /// The token itself, for blocking code (`sleep` and `wait` wake on cancel).
    pub fn cancel_token(&self) -> &CancelToken {
        &self.cancel
    }

    /// Whether this is a call of a generic Tool.
    pub fn is_generic(&self) -> bool {
        self.generic.is_some()
    }

    /// A generic call's validated types view: its bindings, concrete
    /// parameter, ok and err types, and the caller's declarations.
    pub fn types(&self) -> Option<&CallView> {
        self.generic.as_ref().map(|g| &g.view)
    }

    /// A generic call's schema of its success type, as the host sent it.
    pub fn success_schema(&self) -> Option<&Json> {
        self.generic.as_ref().map(|g| &g.schema)
    }

    /// The codec of a type parameter's concrete type in this call: decoding,
    /// encoding, equality and order of its values, as the type description
    /// says. Refused for a name that is no type parameter of the Tool, and for
    /// a binding whose type has no value encoding (asking is what fails; a
    /// call that does not need it runs as usual).
    pub fn codec(&self, type_parameter: &str) -> Result<Codec> {
        let Some(generic) = &self.generic else {
            return Err(Error::new(
                Rule::Unresolved,
                format!("a call of a nongeneric Tool has no type parameter {type_parameter}"),
            ));
        };
        let Some(index) = generic.view.bindings.iter().position(|(name, _)| name == type_parameter) else {
            return Err(Error::new(Rule::Unresolved, format!("the Tool has no type parameter {type_parameter}")));
        };
        let term = &generic.view.bindings[index].1;
        self.bindings[index].get_or_init(|| Codec::compile(&generic.view.declarations, term)).clone()
    }

    /// The codec of the success type of this call (concrete for a generic call).
    pub fn ok_codec(&self) -> Codec {
        Codec::of(self.types.clone(), self.types.ok)
    }

    /// The codec of the declared error type of this call.
    pub fn err_codec(&self) -> Codec {
        Codec::of(self.types.clone(), self.types.err)
    }

    /// The handler's answer for the method's result: the success or the
    /// declared error as a value, with a generic call's type parameter values
    /// decoded at their concrete types. A result that is not of the declared
    /// type is answered Unknown, since the method did run.
    pub fn reply<O: IntoValue, E: IntoValue>(&self, result: std::result::Result<O, E>) -> HandlerResult {
        let (value, node, failed) = match result {
            Ok(ok) => (ok.into_value(), self.types.ok, false),
            Err(err) => (err.into_value(), self.types.err, true),
        };
        let value = if self.generic.is_some() {
            match resolve(value, &self.types.plan, node) {
                Ok(value) => value,
                Err(e) => {
                    let what = if failed { "error" } else { "result" };
                    return HandlerResult::Error(format!("the method's {what} is not of the declared type: {e}"));
                }
            }
        } else {
            value
        };
        if failed {
            HandlerResult::Failed(value)
        } else {
            HandlerResult::Ok(value)
        }
    }

    /// The handler's answer for a method whose result and error types are
    /// the Tool's declared types, as a generated package's methods are (its
    /// types were generated from the listing, which the server holds its
    /// metadata to). A nongeneric call's value writes its canonical text
    /// itself, with no value tree, and its Rust type leaves the check nothing
    /// to refuse ([`CanonicalText`]). A generic call, and a value holding a
    /// carrier of the value model (a [`flow_core::Value`], a type parameter's
    /// JSON), take [`Call::reply`]'s way: resolved and checked.
    pub fn reply_direct<O: CanonicalText, E: CanonicalText>(&self, result: std::result::Result<O, E>) -> HandlerResult {
        if self.generic.is_some() {
            return self.reply(result);
        }
        let mut text = String::with_capacity(TEXT_CAPACITY.get());
        let written = match &result {
            Ok(ok) => ok.write_canonical(&mut text),
            Err(err) => err.write_canonical(&mut text),
        };
        match written {
            Ok(()) => {
                TEXT_CAPACITY.set(text.len().min(TEXT_CAPACITY_MAX));
                if result.is_ok() {
                    HandlerResult::OkText(text)
                } else {
                    HandlerResult::FailedText(text)
                }
            }
            Err(NeedsCheck) => self.reply(result),
        }
    }
}

/// The largest buffer a reply's text starts with: a thread's replies are
/// mostly alike in size, so the last one's length saves growing the next,
/// but one huge reply should not make every later one as big.
const TEXT_CAPACITY_MAX: usize = 64 * 1024;

thread_local! {
    /// The length of this thread's last reply text written directly.
    static TEXT_CAPACITY: Cell<usize> = const { Cell::new(256) };
}

/// Completes when the call is cancelled ([`Call::cancelled`]).
pub struct Cancelled<'a> {
    token: &'a CancelToken,
    /// The waker to wake on cancel, registered with the token on first poll
    /// and updated on later ones (registering again would pile up callbacks).
    slot: Option<Arc<Mutex<Option<Waker>>>>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.token.is_cancelled() {
            return Poll::Ready(());
        }
        match &self.slot {
            Some(slot) => *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(cx.waker().clone()),
            None => {
                let slot = Arc::new(Mutex::new(Some(cx.waker().clone())));
                let wake = slot.clone();
                // Runs at once when the cancel landed since the check above.
                self.token.on_cancel(move || {
                    if let Some(waker) = wake.lock().unwrap_or_else(|e| e.into_inner()).take() {
                        waker.wake();
                    }
                });
                self.slot = Some(slot);
            }
        }
        if self.token.is_cancelled() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }
}
