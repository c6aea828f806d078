//! The host side of the Tool process protocol.

pub mod shell_words;
