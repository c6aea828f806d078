//! The hasher of the server's (run, call) maps: every call looks its pair up
//! a few times (seen before? running? then finished and remembered), and
//! SipHash, std's default, costs more than the rest of those lookups on keys
//! of a few bytes.
//!
//! The keys come from the host, so the hash must not be one a host can aim
//! at: a host that could make many pairs collide would turn each lookup into
//! a scan. Each map gets its own keys, random per process (drawn from std's
//! `RandomState`, which the OS seeds), and the host never sees a hash. Every
//! 16 bytes of input are mixed with a folded 64x64->128 multiply of the input
//! XOR the keys (the construction of foldhash and aHash's fallback): no
//! collisions known that hold whatever the keys. And the maps are bounded
//! (the calls in flight; the remembered pairs), so even a host that did find
//! some could make a lookup scan at most that many entries, never grow the
//! cost without bound.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

/// Builds [`PairHasher`]s with this map's random keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairHashes {
    keys: [u64; 3],
}

impl Default for PairHashes {
    fn default() -> PairHashes {
        let random = RandomState::new();
        PairHashes { keys: [random.hash_one(1u8), random.hash_one(2u8), random.hash_one(3u8)] }
    }
}

impl BuildHasher for PairHashes {
    type Hasher = PairHasher;

    fn build_hasher(&self) -> PairHasher {
        PairHasher { state: self.keys[2], keys: [self.keys[0], self.keys[1]] }
    }
}

/// The hash of one key: see the module's doc.
#[derive(Debug, Clone)]
pub(crate) struct PairHasher {
    state: u64,
    keys: [u64; 2],
}

fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

impl PairHasher {
    fn mix(&mut self, low: u64, high: u64) {
        self.state = folded_multiply(low ^ self.keys[0] ^ self.state, high ^ self.keys[1]);
    }
}

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(16);
        for chunk in &mut chunks {
            let (low, high) = chunk.split_at(8);
            let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
            self.mix(word(low), word(high));
        }
        let rest = chunks.remainder();
        let mut tail = [0u8; 16];
        tail[..rest.len()].copy_from_slice(rest);
        let (low, high) = tail.split_at(8);
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        // The length goes in with the tail, so "a" and "a\0" differ.
        self.mix(word(low), word(high) ^ ((bytes.len() as u64) << 56) ^ bytes.len() as u64);
    }

    fn write_u8(&mut self, byte: u8) {
        self.mix(u64::from(byte), 0x100);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64, 0x200);
    }

    fn finish(&self) -> u64 {
        folded_multiply(self.state ^ self.keys[1], self.keys[0] | 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CallKey;
    use std::collections::HashSet;

    #[test]
    fn pairs_that_differ_hash_apart_and_equal_ones_alike() {
        let hashes = PairHashes::default();
        let mut seen = HashSet::new();
        for run in ["", "r", "run-1", "a\0", "a", "0123456789abcdef", "0123456789abcdefg"] {
            for n in 0..500 {
                let key = CallKey::new(run, format!("c{n}"));
                assert_eq!(hashes.hash_one(&key), hashes.hash_one(key.clone()));
                seen.insert(hashes.hash_one(&key));
            }
        }
        // Moving a byte from run to call changes the key, and the hash.
        assert_ne!(hashes.hash_one(CallKey::new("ab", "c")), hashes.hash_one(CallKey::new("a", "bc")));
        assert_eq!(seen.len(), 7 * 500, "no two of these pairs share a hash");
        // Another map draws other keys.
        assert_ne!(hashes.hash_one(CallKey::new("r", "c1")), PairHashes::default().hash_one(CallKey::new("r", "c1")));
    }
}
