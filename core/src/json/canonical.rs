//! Canonical text straight from the reader, with no tree between: each value
//! is written as it is read, and only an object whose keys arrive out of order
//! has its members moved, once, when it ends.
//!
//! The output equals [`super::write_canonical`] of [`super::parse`]'s tree for
//! every text (tested against it on the shared vectors and random texts); it
//! does not allocate a string, number or node per value.

use super::read::{Keys, Order, Sink};
use super::string::write_string;
use crate::number::ScannedNumber;

/// A sink whose output is the canonical text of what it was given.
pub(crate) struct CanonicalText {
    out: String,
    /// Whether the next value needs a comma before it: the previous one was
    /// an array item. Object members write their own, before the key.
    comma: bool,
    /// The members of every open object, innermost last: where each member
    /// (its key) starts and where its value ends in `out`.
    members: Vec<(usize, usize)>,
    /// Reused when an object's members are put in key order.
    scratch: String,
}

/// An open object: where its members start in `members`.
pub(crate) struct OpenObject {
    first: usize,
}

impl CanonicalText {
    pub(crate) fn with_capacity(capacity: usize) -> CanonicalText {
        CanonicalText {
            out: String::with_capacity(capacity),
            comma: false,
            members: Vec::new(),
            scratch: String::new(),
        }
    }

    pub(crate) fn into_text(self) -> String {
        self.out
    }

    #[inline]
    fn start_value(&mut self) {
        if self.comma {
            self.out.push(',');
        }
    }
}

impl Sink for CanonicalText {
    type Value = ();
    type Array = ();
    type Object = OpenObject;

    fn null(&mut self) {
        self.start_value();
        self.out.push_str("null");
    }

    fn boolean(&mut self, value: bool) {
        self.start_value();
        self.out.push_str(if value { "true" } else { "false" });
    }

    fn number(&mut self, number: &ScannedNumber<'_>) {
        self.start_value();
        number.write_canonical(&mut self.out);
    }

    fn string(&mut self, text: &str) {
        self.start_value();
        write_string(&mut self.out, text);
    }

    fn begin_array(&mut self) {
        self.start_value();
        self.out.push('[');
        self.comma = false;
    }

    fn item(&mut self, _: &mut (), _: ()) {
        self.comma = true;
    }

    fn end_array(&mut self, _: ()) {
        self.out.push(']');
    }

    fn begin_object(&mut self) -> OpenObject {
        self.start_value();
        self.out.push('{');
        OpenObject { first: self.members.len() }
    }

    fn key(&mut self, object: &mut OpenObject, key: &str) {
        if self.members.len() > object.first {
            self.out.push(',');
        }
        let start = self.out.len();
        write_string(&mut self.out, key);
        self.out.push(':');
        self.members.push((start, start));
        self.comma = false;
    }

    fn member(&mut self, _: &mut OpenObject, _: ()) {
        let end = self.out.len();
        self.members.last_mut().expect("a key before its value").1 = end;
    }

    fn end_object(&mut self, object: OpenObject, _: Keys<'_>, order: Order<'_>) {
        if let Order::Sorted(order) = order {
            let members = &self.members[object.first..];
            let region = members[0].0;
            self.scratch.clear();
            self.scratch.push_str(&self.out[region..]);
            self.out.truncate(region);
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    self.out.push(',');
                }
                let (start, end) = members[i];
                // Member bounds sit on ASCII punctuation: char boundaries.
                self.out.push_str(&self.scratch[start - region..end - region]);
            }
        }
        self.members.truncate(object.first);
        self.out.push('}');
    }
}
