//! What flow-chaos and flow-soak must do alike: the same seeded randomness,
//! the same hash of an outcome (the soak compares the soak's hash with the
//! one flow-chaos logged), the same reading of resident memory. Each binary
//! includes this file (`#[path]`), using what it needs of it.

/// SplitMix64: small, seeded, good enough to pick faults and plans.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The 64-bit FNV-1a of an outcome's canonical text (logged in hex).
pub fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A process's resident memory (VmRSS) in bytes; `process` is a pid or `self`.
pub fn rss(process: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line["VmRSS:".len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}
