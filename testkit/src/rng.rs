//! A small seeded generator (xorshift64): the same seed gives the same types,
//! values and texts on every machine, so a failing case is reproduced from
//! the seed a run prints.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // xorshift never leaves zero: an odd state cannot be zero.
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n` (0 when `n` is 0), of `n`'s own integer type.
    pub fn below<N>(&mut self, n: N) -> N
    where
        N: Copy + TryInto<u64> + TryFrom<u64>,
    {
        let bound = n.try_into().ok().unwrap_or(0).max(1);
        N::try_from(self.next_u64() % bound).ok().expect("below a bound of its own type")
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}
