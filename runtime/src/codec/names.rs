//! The names of record fields and constructors, shared between the values
//! built with them: generated `into_value` code names the same few fields on
//! every call, and an `Arc<str>` made afresh for each would be an allocation
//! (and a free) per field per value.
//!
//! Each thread keeps a small direct-mapped cache from the name's text to its
//! `Arc`. A hit is checked by content, so the cache gives the right name for
//! any `&str`, whatever its address; a miss replaces the slot, so the cache
//! never grows.

use std::cell::RefCell;
use std::sync::Arc;

const SLOTS: usize = 256;

thread_local! {
    static NAMES: RefCell<Vec<Option<Arc<str>>>> = RefCell::new(vec![None; SLOTS]);
}

/// The slot of a name: generated code passes literals, whose address and
/// length tell names apart at the cost of no hashing of their text.
fn slot(name: &str) -> usize {
    let address = name.as_ptr() as usize;
    ((address >> 3) ^ (address >> 11) ^ name.len().wrapping_mul(31)) % SLOTS
}

/// `name` as an `Arc<str>`, shared with earlier values of this thread that
/// had the same name where the cache still holds it.
pub(crate) fn shared_name(name: &str) -> Arc<str> {
    let made = || Arc::from(name);
    NAMES
        .try_with(|names| {
            let mut names = names.borrow_mut();
            let slot = &mut names[slot(name)];
            match slot {
                Some(held) if **held == *name => held.clone(),
                _ => slot.insert(made()).clone(),
            }
        })
        // A thread tearing down its locals builds names the plain way.
        .unwrap_or_else(|_| made())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_its_text_whatever_slot_it_shares() {
        let literal: &'static str = "city";
        let first = shared_name(literal);
        assert!(Arc::ptr_eq(&first, &shared_name(literal)), "a literal's name is shared");
        // Texts made at run time, some at addresses reused by others: each
        // comes back as its own text.
        for n in 0..2000 {
            let text = format!("field{}", n % 37);
            assert_eq!(&*shared_name(&text), text.as_str());
            drop(text);
            let other = "x".repeat(n % 5 + 1);
            assert_eq!(&*shared_name(&other), other.as_str());
        }
        assert_eq!(&*shared_name("city"), "city");
    }
}
