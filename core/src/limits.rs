//! The decoding limits of `decisions.md` section 2. Every API that decodes takes
//! a `Limits`; `Limits::default()` holds the specified defaults.

/// Bounds a decoded text is held to. A text past any of them is refused like any
/// other failure to decode, without materializing the offending value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes in one text (one protocol message): 16 MiB.
    pub max_bytes: usize,
    /// Nesting of arrays and objects, the outermost counting as 1: 128.
    pub max_depth: usize,
    /// Digits in a number's canonical text, sign and point not counted: 4,300.
    pub max_digits: u64,
}

impl Limits {
    /// The limits of `decisions.md` section 2: 16 MiB, depth 128, 4,300 digits.
    pub const DEFAULT: Limits = Limits { max_bytes: 16 * 1024 * 1024, max_depth: 128, max_digits: 4300 };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
