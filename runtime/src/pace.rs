//! Which served Tools run long: how the stdio driver's leader chooses between
//! running a call on its own thread (no hand-off, the common case) and
//! handing it to another thread (a handler that blocks would hold up
//! reading).
//!
//! A Tool is taken to run long once one of its calls held the leader past
//! the standby's watch ([`super::schedule::TICK`]), or ran that long on
//! another thread. It is taken to be quick again after [`QUICK_RUNS`] of its
//! calls in a row ended within a quarter of that, so a Tool slow only on its
//! first call (a cache warming, a connection opening) does not pay a
//! hand-off for ever, and one that is slow now and then costs a stalled
//! reader at most once per [`QUICK_RUNS`] calls.

use std::time::Duration;

/// How long one inline call may hold the leader before the standby takes up
/// the input; a call that holds it this long runs long.
pub const TICK: Duration = Duration::from_millis(1);

/// Quick calls in a row that make a long-running Tool quick again.
pub const QUICK_RUNS: u32 = 16;

#[derive(Debug, Clone, Copy, Default)]
struct ToolPace {
    long: bool,
    quick_runs: u32,
}

/// The pace of every served Tool, by Tool index.
#[derive(Debug, Default)]
pub struct Pace {
    tools: Vec<ToolPace>,
}

impl Pace {
    /// Every Tool quick.
    pub fn new(tools: usize) -> Pace {
        Pace { tools: vec![ToolPace::default(); tools] }
    }

    /// Whether the Tool's calls go to another thread.
    pub fn is_long(&self, tool: usize) -> bool {
        self.tools.get(tool).is_some_and(|t| t.long)
    }

    /// A call of the Tool held the leader past the watch.
    pub fn ran_long(&mut self, tool: usize) {
        if let Some(t) = self.tools.get_mut(tool) {
            *t = ToolPace { long: true, quick_runs: 0 };
        }
    }

    /// A call of the Tool ran on another thread for `elapsed`.
    pub fn ran(&mut self, tool: usize, elapsed: Duration) {
        let Some(t) = self.tools.get_mut(tool) else { return };
        if elapsed >= TICK {
            *t = ToolPace { long: true, quick_runs: 0 };
        } else if elapsed <= TICK / 4 {
            t.quick_runs += 1;
            if t.quick_runs >= QUICK_RUNS {
                *t = ToolPace::default();
            }
        } else {
            t.quick_runs = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_long_once_a_call_ran_long_and_quick_again_after_quick_runs_in_a_row() {
        let mut pace = Pace::new(2);
        assert!(!pace.is_long(0) && !pace.is_long(7));
        pace.ran_long(0);
        assert!(pace.is_long(0) && !pace.is_long(1));
        for _ in 0..QUICK_RUNS - 1 {
            pace.ran(0, Duration::ZERO);
        }
        // One middling run breaks the row.
        pace.ran(0, TICK / 2);
        for _ in 0..QUICK_RUNS - 1 {
            pace.ran(0, Duration::ZERO);
        }
        assert!(pace.is_long(0));
        pace.ran(0, Duration::ZERO);
        assert!(!pace.is_long(0));
        pace.ran(1, TICK);
        assert!(pace.is_long(1));
    }
}
