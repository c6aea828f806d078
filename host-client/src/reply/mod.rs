//! The host's one reader of a Tool process's lines. A `reply` in the
//! canonical envelope, the line of nearly every call, is split without a tree
//! ([`split`]) and its outcome decoded at the call's declared types straight
//! from its text ([`text`]); every other line, and every reply that path
//! cannot judge, goes to the protocol's parser and
//! [`flow_protocol::outcome::admit`], which decide and word every
//! outcome. The fast path only ever gives what the other one would, so it is
//! a detail of this module: the connection sees one entry, [`read_line`].

mod split;
mod text;

use flow_core::limits::Limits;
use flow_protocol::message::{self, Incoming};
use flow_protocol::outcome::{CallOutcome, ReplyTypes};

pub(crate) use split::ReplyParts;

/// One line from a Tool process, read.
pub(crate) enum Line<'a> {
    /// A reply in the canonical envelope, its outcome not yet read.
    Reply(ReplyParts<'a>),
    /// Any other line, read whole by the protocol's parser.
    Message(Incoming),
}

/// Reads one line (without its `\n`) under `limits`, splitting it once.
pub(crate) fn read_line<'a>(line: &'a [u8], limits: &Limits) -> Line<'a> {
    match split::split_reply(line, limits) {
        Some(parts) => Line::Reply(parts),
        None => Line::Message(message::parse_line(line, limits)),
    }
}

impl ReplyParts<'_> {
    /// The outcome decoded at `types` straight from its text; `None` when
    /// only [`ReplyParts::into_message`] and `admit` may judge it.
    pub(crate) fn admit_text(&self, types: ReplyTypes<'_>, limits: &Limits) -> Option<CallOutcome> {
        text::admit_text(self.outcome, types, limits)
    }

    /// The reply as a message, its outcome a tree. A reply whose outcome does
    /// not parse is judged whole by the protocol's parser (`line` is the
    /// line these parts were split from), which words why.
    pub(crate) fn into_message(self, line: &[u8], limits: &Limits) -> Incoming {
        split::parse_parts(self, limits).unwrap_or_else(|| message::parse_line(line, limits))
    }
}
