//! The benchmark corpus: records with small and 30-digit ints, 22-digit
//! decimals, non-ASCII strings with escapes, nested lists and optional members.
//! Deterministic (a fixed xorshift seed), so every run and every language
//! measures the same bytes.

/// The Flow types of one corpus record, as a tools listing whose one Tool
/// returns `List<Reading>`.
pub const LISTING: &str = include_str!("../corpus.tools.json");

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn digits(&mut self, n: usize) -> String {
        let mut s = String::with_capacity(n);
        s.push(char::from(b'1' + self.below(9) as u8));
        for _ in 1..n {
            s.push(char::from(b'0' + self.below(10) as u8));
        }
        s
    }
}

const WORDS: [&str; 12] = [
    "Zürich",
    "東京",
    "naïve",
    "line\\nbreak",
    "tab\\there",
    "quote\\\"d",
    "emoji 🌧",
    "plain",
    "Ελλάδα",
    "\\u00e9t\\u00e9",
    "back\\\\slash",
    "ascii",
];

/// A JSON array of `count` records, written with whitespace and unsorted keys
/// as a producer would, so canonicalization has real work to do.
pub fn corpus(count: usize) -> String {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(count * 420);
    out.push_str("[\n");
    for i in 0..count {
        if i > 0 {
            out.push_str(",\n");
        }
        let small = rng.below(100_000);
        let big = rng.digits(30);
        let decimal = format!("{}.{}", rng.digits(10), rng.digits(12));
        let name = WORDS[rng.below(WORDS.len() as u64) as usize];
        let note = WORDS[rng.below(WORDS.len() as u64) as usize];
        out.push_str(&format!(
            "  {{\"name\": \"{name} {i}\", \"id\": {small}, \"serial\": {big}, \"reading\": {decimal}, \"tags\": [\"{note}\", \"t{small}\"]"
        ));
        out.push_str(", \"matrix\": [");
        for r in 0..3 {
            if r > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("[{}, {}, -{}]", rng.below(1000), rng.digits(18), rng.below(50)));
        }
        out.push(']');
        if rng.below(2) == 0 {
            out.push_str(&format!(", \"comment\": \"{note} ✓\""));
        }
        if rng.below(3) == 0 {
            out.push_str(&format!(", \"delta\": -{}.{}0", rng.below(100), rng.digits(6)));
        }
        out.push('}');
    }
    out.push_str("\n]\n");
    out
}
