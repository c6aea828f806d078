//! flow-chaos: a Tool process that wraps another one and misbehaves on
//! purpose, for the fault soak (`flow-soak`, docs/testing.md "The fault soak").
//!
//! ```sh
//! flow-chaos --seed S --log FILE [--dup-call P] [--dup-reply P] [--delay P]
//!            [--max-delay-ms M] [--kill P] [--kill-describe P] [--swap-replies P]
//!            [--stall P] [--stall-ms M] -- TOOL COMMAND...
//! ```
//!
//! It starts the real Tool and passes lines both ways, and with seeded
//! randomness (probabilities per line):
//!
//! - `--dup-call`: sends a call line to the Tool twice, the copy after a random
//!   delay (so it meets the call running or finished): the re-sent call rule
//!   (decisions.md 7) says the Tool answers both with one outcome and runs
//!   the author's code once.
//! - `--dup-reply`: sends a reply line to the host twice, the copy after a
//!   random delay: the host takes the first and drops the second
//!   (host-boundary.md: "A reply for a call that is not open ... is dropped").
//! - `--delay`: holds a reply up to `--max-delay-ms` before passing it on, so
//!   replies overtake each other.
//! - `--kill`: on reading or writing a line, kills the Tool and exits at
//!   once: whatever it held (read but not yet passed on, delayed) is lost,
//!   and the host sees the process end. The first process is spared until
//!   its first line (the describe answer) is out, since the host binds
//!   through it: a bind that fails ends the soak before any call.
//! - `--stall`: before reading a line from the Tool, stops reading for
//!   `--stall-ms` (a host that stops reading for a while): the Tool's stdout
//!   fills, and its bounds must push back on its stdin rather than hold
//!   replies without end; every call must still end exactly once.
//! - `--kill-describe`: kills it on reading `describe`, in every process but
//!   the first: a restart that fails, so the call that asked for it is NotRun.
//! - `--swap-replies` (to test the soak itself): writes two replies with
//!   each other's outcomes, and logs them as if it had not: a host that
//!   misattributed replies would look like this, and the soak must say so.
//!   A reply drawn for it is held until the next reply for another call
//!   with another outcome, whenever that comes, so that the lie does not
//!   depend on a second reply being queued at that moment (two equal
//!   outcomes exchanged would be no lie). It is written unswapped, and
//!   logged so, only once no reply to another call can come: none is
//!   queued, and no other call read from the host awaits its reply.
//!
//! Every step is appended to `--log` as one line `EVENT GEN ...`, where GEN
//! counts the processes started with this log (kept in `FILE.gen`), and a
//! call's key is `["RUN","CALL"]`:
//!
//! - `start GEN PID TOOL_PID`; `end GEN` (its input ended, the Tool
//!   finished, everything held was written); `kill GEN WHERE`
//! - `in GEN KEY`: a call line read from the host
//! - `fwd GEN KEY`: a call line written to the Tool (twice for a duplicate)
//! - `dupcall GEN KEY` / `dupreply GEN KEY`: a copy scheduled
//! - `delay GEN KEY MS`: a reply held
//! - `reply GEN KEY HASH`: a reply line read from the Tool
//! - `out GEN KEY HASH`: a reply line written to the host
//! - `unswapped GEN KEY`: a reply drawn for `--swap-replies` goes out as it
//!   is, no partner for it being able to come
//! - `rss GEN REPLIES BYTES`: the Tool's resident memory after that many replies
//!
//! The Tool's stderr is appended to `FILE.stderr`.
//!
//! HASH is the 64-bit FNV-1a of the outcome's canonical text, in hex.
//! A record is written while the lock of the pipe it is about is held, and
//! a kill takes the host pipe's lock and the log's first, so `out` is in the
//! log exactly when the line was written to the host before the end (a `fwd`
//! may be missing for a line written to the Tool as it was killed: its call
//! is Unknown to the host either way). The log is flushed before
//! the process exits, both ways. Its last act is writing GEN to
//! `FILE.exited`, so the soak knows when a log is complete.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use flow_core::json::write_string;
use flow_core::Limits;
use flow_protocol::message::{parse_line, CallKey, Incoming};

#[path = "../soak_support.rs"]
mod soak_support;
use soak_support::{fnv, rss, Rng};

/// How often a reply drawn for `--swap-replies` asks again whether its
/// partner may still come.
const RECHECK: Duration = Duration::from_millis(5);

fn key_text(key: &CallKey) -> String {
    let mut out = String::from("[");
    write_string(&mut out, &key.run);
    out.push(',');
    write_string(&mut out, &key.call);
    out.push(']');
    out
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone, Copy)]
struct Rates {
    dup_call: f64,
    dup_reply: f64,
    delay: f64,
    max_delay_ms: u64,
    kill: f64,
    kill_describe: f64,
    swap_replies: f64,
    stall: f64,
    stall_ms: u64,
}

/// A line waiting to be written, and the record to log once it is.
struct Held {
    due: Instant,
    seq: u64,
    line: Vec<u8>,
    record: Option<String>,
    /// The key (as logged) of the call a reply line answers.
    reply_to: Option<String>,
}

impl PartialEq for Held {
    fn eq(&self, other: &Self) -> bool {
        (self.due, self.seq) == (other.due, other.seq)
    }
}
impl Eq for Held {}
impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Held {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.due, self.seq).cmp(&(other.due, other.seq))
    }
}

/// What [`Queue::pop_within`] found.
enum Popped {
    Line(Held),
    /// Closed, and nothing is left.
    Closed,
    /// Nothing was due in the time given.
    Waited,
}

/// Lines for one direction, written in order of due time.
#[derive(Default)]
struct Queue {
    state: Mutex<(BinaryHeap<Reverse<Held>>, u64, bool)>,
    ready: Condvar,
}

impl Queue {
    fn push(&self, delay: Duration, line: Vec<u8>, record: Option<String>, reply_to: Option<String>) {
        let mut s = lock(&self.state);
        s.1 += 1;
        let seq = s.1;
        s.0.push(Reverse(Held { due: Instant::now() + delay, seq, line, record, reply_to }));
        self.ready.notify_one();
    }

    fn close(&self) {
        lock(&self.state).2 = true;
        self.ready.notify_one();
    }

    /// Whether a line waiting here, due or not, is a reply to a call other
    /// than `call`.
    fn holds_reply_to_other_than(&self, call: &str) -> bool {
        lock(&self.state).0.iter().any(|Reverse(h)| h.reply_to.as_deref().is_some_and(|k| k != call))
    }

    /// The next line when it is due; None once closed and empty.
    fn pop(&self) -> Option<Held> {
        loop {
            match self.pop_within(None) {
                Popped::Line(held) => return Some(held),
                Popped::Closed => return None,
                Popped::Waited => {}
            }
        }
    }

    /// The next line when it is due, waiting at most `most` (without end
    /// when None) for one to be.
    fn pop_within(&self, most: Option<Duration>) -> Popped {
        let until = most.map(|most| Instant::now() + most);
        let mut s = lock(&self.state);
        loop {
            let now = Instant::now();
            let due = match s.0.peek() {
                Some(Reverse(top)) if top.due <= now => return Popped::Line(s.0.pop().unwrap().0),
                Some(Reverse(top)) => Some(top.due),
                None if s.2 => return Popped::Closed,
                None => None,
            };
            let wake = match (due, until) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if until.is_some_and(|until| until <= now) {
                return Popped::Waited;
            }
            s = match wake {
                Some(wake) => self.ready.wait_timeout(s, wake - now).unwrap_or_else(|e| e.into_inner()).0,
                None => self.ready.wait(s).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }
}

struct Chaos {
    generation: u64,
    /// Whether `--kill` may strike: from the start in a restarted process,
    /// in the first once a line has reached the host.
    armed: AtomicBool,
    rates: Rates,
    log: Mutex<BufWriter<File>>,
    log_path: String,
    child: Mutex<Child>,
    child_pid: u32,
    /// Held while writing to the Tool (a kill does not wait for it).
    to_tool: Mutex<Option<ChildStdin>>,
    /// Held while writing to the host, and by a kill.
    to_host: Mutex<std::io::Stdout>,
    to_tool_queue: Queue,
    to_host_queue: Queue,
    /// Keys of the calls read from the host that the Tool has not answered
    /// yet: whose replies are still to come.
    unanswered: Mutex<HashSet<String>>,
}

impl Chaos {
    fn log(&self, record: &str) {
        let mut log = lock(&self.log);
        let _ = writeln!(log, "{record}");
    }

    /// A random kill now (`--kill`), once armed.
    fn strikes(&self, rng: &mut Rng) -> bool {
        rng.chance(self.rates.kill) && self.armed.load(Ordering::Relaxed)
    }

    fn delay(&self, rng: &mut Rng) -> Duration {
        Duration::from_millis(1 + rng.below(self.rates.max_delay_ms))
    }

    /// Kills the Tool and exits, holding the host's pipe so nothing is half
    /// written to the host and the log says exactly what got out.
    ///
    /// The log stays locked until the exit: once the Tool is dead the main
    /// thread sees its output end and would log `end` and exit first. The
    /// Tool's pipe is not locked: a write to it blocked on a full pipe (the
    /// Tool itself blocked writing to us) would hold that lock forever; once
    /// the Tool is killed such a write fails, and one that got through but is
    /// not logged (the log is ours now) reached no Tool that could answer.
    fn kill(&self, at: &str) -> ! {
        let _host = lock(&self.to_host);
        let mut log = lock(&self.log);
        let _ = writeln!(log, "kill {} {at}", self.generation);
        {
            let mut child = lock(&self.child);
            let _ = child.kill();
            let _ = child.wait();
        }
        self.finish(&mut log);
        std::process::exit(9)
    }

    /// Flushes the log and says this process is done with it.
    fn finish(&self, log: &mut BufWriter<File>) {
        let _ = log.flush();
        let _ = std::fs::write(format!("{}.exited", self.log_path), self.generation.to_string());
    }

    /// Host -> Tool: read call lines, schedule them (and copies).
    fn read_host(&self, mut rng: Rng) {
        let mut input = BufReader::new(std::io::stdin().lock());
        let limits = Limits::default();
        loop {
            let mut line = Vec::new();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let key = match parse_line(line.strip_suffix(b"\n").unwrap_or(&line), &limits) {
                Incoming::Call(c) => Some(c.key),
                Incoming::BadCall { key, .. } => Some(key),
                // Not the first process's: the host binds through that one.
                Incoming::Describe { .. } if self.generation > 1 && rng.chance(self.rates.kill_describe) => {
                    self.kill("after reading describe")
                }
                _ => None,
            };
            let record = key.as_ref().map(|k| format!("fwd {} {}", self.generation, key_text(k)));
            if let Some(k) = &key {
                self.log(&format!("in {} {}", self.generation, key_text(k)));
                lock(&self.unanswered).insert(key_text(k));
            }
            if self.strikes(&mut rng) {
                self.kill("after reading a line from the host");
            }
            if rng.chance(self.rates.dup_call) {
                if let Some(k) = &key {
                    self.log(&format!("dupcall {} {}", self.generation, key_text(k)));
                }
                // Up to five times the longest reply delay: the copy meets
                // its call running (one reply for both) or finished (the
                // remembered reply again).
                let delay = self.delay(&mut rng) * (1 + rng.below(5) as u32);
                self.to_tool_queue.push(delay, line.clone(), record.clone(), None);
            }
            self.to_tool_queue.push(Duration::ZERO, line, record, None);
        }
        self.to_tool_queue.close();
    }

    fn write_to_tool(&self, mut rng: Rng) {
        while let Some(held) = self.to_tool_queue.pop() {
            {
                let mut stdin = lock(&self.to_tool);
                if let Some(pipe) = stdin.as_mut() {
                    if pipe.write_all(&held.line).and_then(|()| pipe.flush()).is_err() {
                        *stdin = None;
                    } else if let Some(record) = &held.record {
                        self.log(record);
                    }
                }
            }
            if self.strikes(&mut rng) {
                self.kill("after writing a line to the Tool");
            }
        }
        // The host's input ended: so does the Tool's.
        *lock(&self.to_tool) = None;
    }

    /// Tool -> host: read replies, schedule them (delayed, and copies).
    fn read_tool(&self, stdout: std::process::ChildStdout, mut rng: Rng) {
        let mut input = BufReader::new(stdout);
        let limits = Limits::default();
        let mut replies = 0u64;
        loop {
            if rng.chance(self.rates.stall) {
                self.log(&format!("stall {} {}", self.generation, self.rates.stall_ms));
                std::thread::sleep(Duration::from_millis(self.rates.stall_ms));
            }
            let mut line = Vec::new();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let reply = match parse_line(line.strip_suffix(b"\n").unwrap_or(&line), &limits) {
                Incoming::Reply(r) => Some((key_text(&r.key), format!("{:016x}", fnv(&r.outcome.to_canonical())))),
                _ => None,
            };
            let record = reply.as_ref().map(|(key, hash)| format!("out {} {key} {hash}", self.generation));
            if let Some((key, hash)) = &reply {
                self.log(&format!("reply {} {key} {hash}", self.generation));
                replies += 1;
                if replies % 256 == 0 {
                    self.sample(replies);
                }
            }
            if self.strikes(&mut rng) {
                self.kill("after reading a line from the Tool");
            }
            let delay = if rng.chance(self.rates.delay) {
                let d = self.delay(&mut rng);
                if let Some((key, _)) = &reply {
                    self.log(&format!("delay {} {key} {}", self.generation, d.as_millis()));
                }
                d
            } else {
                Duration::ZERO
            };
            let reply_to = reply.map(|(key, _)| key);
            if rng.chance(self.rates.dup_reply) {
                if let Some(key) = &reply_to {
                    self.log(&format!("dupreply {} {key}", self.generation));
                }
                self.to_host_queue.push(delay + self.delay(&mut rng), line.clone(), record.clone(), reply_to.clone());
            }
            self.to_host_queue.push(delay, line, record, reply_to.clone());
            // Only once queued (see `partner_may_come`).
            if let Some(key) = &reply_to {
                lock(&self.unanswered).remove(key);
            }
        }
        self.sample(replies);
        self.to_host_queue.close();
    }

    fn sample(&self, replies: u64) {
        if let Some(bytes) = rss(&self.child_pid.to_string()) {
            self.log(&format!("rss {} {replies} {bytes}", self.generation));
        }
    }

    fn write_to_host(&self, mut rng: Rng) {
        // The lie (`--swap-replies`): a reply drawn for it waits here for its
        // partner, and the two go out with each other's outcomes, logged as
        // if not.
        let mut drawn: Option<Held> = None;
        loop {
            if let Some(reply) = drawn.take_if(|reply| !self.partner_may_come(reply)) {
                self.write_unswapped(&reply, &mut rng);
            }
            // While a reply is drawn, whether its partner may still come is
            // asked again and again: it can change with nothing queued (the
            // call whose reply was just written leaves `unanswered` only
            // after `read_tool` queued it), and a wait for the next line
            // alone would then hold the drawn reply, and the host, for good.
            let held = match &drawn {
                None => self.to_host_queue.pop(),
                Some(_) => match self.to_host_queue.pop_within(Some(RECHECK)) {
                    Popped::Line(held) => Some(held),
                    Popped::Closed => None,
                    Popped::Waited => continue,
                },
            };
            let Some(held) = held else { break };
            let Some(first) = drawn.take() else {
                if held.reply_to.is_some() && rng.chance(self.rates.swap_replies) {
                    drawn = Some(held);
                } else {
                    self.write_to_host_logged(&held, &mut rng);
                }
                continue;
            };
            let swapped = match (&first.reply_to, &held.reply_to) {
                (Some(a), Some(b)) if a != b => swap_outcomes(&first.line, &held.line),
                _ => None,
            };
            match swapped {
                Some((a, b)) => {
                    self.write_to_host_logged(&Held { line: a, ..first }, &mut rng);
                    self.write_to_host_logged(&Held { line: b, ..held }, &mut rng);
                }
                None => {
                    // No partner: another call's, with another outcome.
                    self.write_to_host_logged(&held, &mut rng);
                    drawn = Some(first);
                }
            }
        }
        if let Some(reply) = drawn {
            self.write_unswapped(&reply, &mut rng);
        }
    }

    /// Whether a reply to another call than `reply`'s can still reach the
    /// host: one is queued, or a call read from the host awaits its reply.
    /// `read_tool` queues a reply before it takes its call off
    /// `unanswered`, and `unanswered` is read first, so a reply between the
    /// two is seen in one or the other.
    fn partner_may_come(&self, reply: &Held) -> bool {
        let call = reply.reply_to.as_deref().unwrap_or_default();
        lock(&self.unanswered).iter().any(|k| k != call) || self.to_host_queue.holds_reply_to_other_than(call)
    }

    /// A reply drawn for the lie goes out as it is, and the log says so.
    fn write_unswapped(&self, reply: &Held, rng: &mut Rng) {
        if let Some(key) = &reply.reply_to {
            self.log(&format!("unswapped {} {key}", self.generation));
        }
        self.write_to_host_logged(reply, rng);
    }

    /// Writes a line to the host and logs its record (under the pipe's
    /// lock); exits when the host is gone, and kills when `--kill` strikes.
    fn write_to_host_logged(&self, held: &Held, rng: &mut Rng) {
        {
            let mut out = lock(&self.to_host);
            if out.write_all(&held.line).and_then(|()| out.flush()).is_err() {
                // The host is gone: nothing more to do.
                self.finish(&mut lock(&self.log));
                std::process::exit(0);
            }
            if let Some(record) = &held.record {
                self.log(record);
            }
            self.armed.store(true, Ordering::Relaxed);
        }
        if self.strikes(rng) {
            self.kill("after writing a line to the host");
        }
    }
}

/// Two reply lines with their outcomes exchanged; None when the outcomes
/// are the same, since exchanging them would be no lie.
fn swap_outcomes(a: &[u8], b: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let limits = Limits::default();
    let reply = |line: &[u8]| match parse_line(line.strip_suffix(b"\n").unwrap_or(line), &limits) {
        Incoming::Reply(r) => Some(r),
        _ => None,
    };
    let (a, b) = (reply(a)?, reply(b)?);
    if a.outcome.to_canonical() == b.outcome.to_canonical() {
        return None;
    }
    let line = |key: &CallKey, outcome: &flow_core::Json| {
        let mut out = String::from(r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"#);
        write_string(&mut out, &key.call);
        out.push_str(r#","outcome":"#);
        out.push_str(&outcome.to_canonical());
        out.push_str(r#","run":"#);
        write_string(&mut out, &key.run);
        out.push_str("}}\n");
        out.into_bytes()
    };
    Some((line(&a.key, &b.outcome), line(&b.key, &a.outcome)))
}

fn usage(why: &str) -> ! {
    eprintln!("flow-chaos: {why}\nusage: flow-chaos --seed S --log FILE [--dup-call P] [--dup-reply P] [--delay P] [--max-delay-ms M] [--kill P] [--kill-describe P] [--swap-replies P] [--stall P] [--stall-ms M] -- COMMAND ARGS...");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.iter().position(|a| a == "--").unwrap_or_else(|| usage("no `--` before the Tool's command"));
    let (flags, command) = (&args[..split], &args[split + 1..]);
    if command.is_empty() {
        usage("no Tool command");
    }
    let mut seed = None;
    let mut log_path = None;
    let mut rates = Rates {
        dup_call: 0.0,
        dup_reply: 0.0,
        delay: 0.0,
        max_delay_ms: 20,
        kill: 0.0,
        kill_describe: 0.0,
        swap_replies: 0.0,
        stall: 0.0,
        stall_ms: 500,
    };
    let mut it = flags.iter();
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| usage(&format!("{flag} takes a value")));
        let p = || value.parse::<f64>().unwrap_or_else(|_| usage(&format!("{flag}: not a number: {value}")));
        match flag.as_str() {
            "--seed" => seed = Some(value.parse::<u64>().unwrap_or_else(|_| usage("--seed: not a number"))),
            "--log" => log_path = Some(value.clone()),
            "--dup-call" => rates.dup_call = p(),
            "--dup-reply" => rates.dup_reply = p(),
            "--delay" => rates.delay = p(),
            "--kill" => rates.kill = p(),
            "--swap-replies" => rates.swap_replies = p(),
            "--kill-describe" => rates.kill_describe = p(),
            "--stall" => rates.stall = p(),
            "--stall-ms" => rates.stall_ms = value.parse().unwrap_or_else(|_| usage("--stall-ms: not a number")),
            "--max-delay-ms" => {
                rates.max_delay_ms = value.parse().unwrap_or_else(|_| usage("--max-delay-ms: not a number"))
            }
            other => usage(&format!("unknown flag {other}")),
        }
    }
    let seed = seed.unwrap_or_else(|| usage("--seed is required"));
    let log_path = log_path.unwrap_or_else(|| usage("--log is required"));

    // One log for every process the host starts: each takes the next
    // generation, and its own stream of random numbers.
    let gen_path = format!("{log_path}.gen");
    let generation =
        std::fs::read_to_string(&gen_path).ok().and_then(|t| t.trim().parse::<u64>().ok()).unwrap_or(0) + 1;
    std::fs::write(&gen_path, generation.to_string()).unwrap_or_else(|e| usage(&format!("{gen_path}: {e}")));
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .unwrap_or_else(|e| usage(&format!("{log_path}: {e}")));

    // The Tool's stderr goes to FILE.stderr, where a crash can be read.
    let stderr = OpenOptions::new()
        .create(true)
        .append(true)
        .open(format!("{log_path}.stderr"))
        .map_or_else(|_| Stdio::inherit(), Stdio::from);
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| {
            eprintln!("flow-chaos: could not start {}: {e}", command[0]);
            std::process::exit(1)
        });
    let stdin = child.stdin.take();
    let stdout = child.stdout.take().expect("piped stdout");
    let child_pid = child.id();
    let chaos = Arc::new(Chaos {
        generation,
        armed: AtomicBool::new(generation > 1),
        rates,
        log: Mutex::new(BufWriter::with_capacity(1 << 16, log)),
        log_path,
        child: Mutex::new(child),
        child_pid,
        to_tool: Mutex::new(stdin),
        to_host: Mutex::new(std::io::stdout()),
        to_tool_queue: Queue::default(),
        to_host_queue: Queue::default(),
        unanswered: Mutex::new(HashSet::new()),
    });
    chaos.log(&format!("start {generation} {} {child_pid}", std::process::id()));
    let rng = |stream: u64| {
        Rng(seed ^ generation.wrapping_mul(0xA076_1D64_78BD_642F) ^ stream.wrapping_mul(0xE703_7ED1_A0B4_28DB))
    };

    let threads = [
        {
            let c = chaos.clone();
            let r = rng(1);
            std::thread::spawn(move || c.read_host(r))
        },
        {
            let c = chaos.clone();
            let r = rng(2);
            std::thread::spawn(move || c.write_to_tool(r))
        },
        {
            let c = chaos.clone();
            let r = rng(3);
            std::thread::spawn(move || c.read_tool(stdout, r))
        },
    ];
    // This thread writes to the host until the Tool's output ends and every
    // held reply is out.
    chaos.write_to_host(rng(4));
    let _ = lock(&chaos.child).wait();
    {
        let mut log = lock(&chaos.log);
        let _ = writeln!(log, "end {generation}");
        chaos.finish(&mut log);
    }
    // The reader of the host's input may still be blocked on it: exit
    // without joining.
    drop(threads);
    std::process::exit(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The soak's hang (`--swap-replies`, about one run in three): a drawn
    /// reply's only possible partner was answered with the same outcome and
    /// written, but its call was still in `unanswered` (`read_tool` takes it
    /// off just after queueing the reply), so the partner still "might
    /// come"; then nothing more was queued, and the drawn reply, and the
    /// host waiting for it, waited for good.
    #[test]
    fn a_drawn_reply_goes_out_once_no_partner_can_come_with_nothing_more_queued() {
        let dir = std::env::temp_dir().join(format!("flow-chaos-drawn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log_path = dir.join("chaos.log");
        let child = Command::new("true").spawn().unwrap();
        let rates = Rates {
            dup_call: 0.0,
            dup_reply: 0.0,
            delay: 0.0,
            max_delay_ms: 0,
            kill: 0.0,
            kill_describe: 0.0,
            swap_replies: 1.0,
            stall: 0.0,
            stall_ms: 0,
        };
        let chaos = Arc::new(Chaos {
            generation: 1,
            armed: AtomicBool::new(false),
            rates,
            log: Mutex::new(BufWriter::new(File::create(&log_path).unwrap())),
            log_path: log_path.to_string_lossy().into_owned(),
            child_pid: child.id(),
            child: Mutex::new(child),
            to_tool: Mutex::new(None),
            to_host: Mutex::new(std::io::stdout()),
            to_tool_queue: Queue::default(),
            to_host_queue: Queue::default(),
            unanswered: Mutex::new(HashSet::from(["b".to_owned()])),
        });
        let logged = |text: &str| {
            let _ = lock(&chaos.log).flush();
            std::fs::read_to_string(&log_path).unwrap().contains(text)
        };
        // a's reply is drawn for the lie; b, unanswered, may be its partner.
        chaos.to_host_queue.push(Duration::ZERO, b"\n".to_vec(), None, Some("a".to_owned()));
        let writer = {
            let chaos = chaos.clone();
            std::thread::spawn(move || chaos.write_to_host(Rng(1)))
        };
        std::thread::sleep(Duration::from_millis(100));
        // b's reply, with the same outcome (no lie to tell with it), queued
        // before b leaves `unanswered`, as `read_tool` does.
        chaos.to_host_queue.push(Duration::ZERO, b"\n".to_vec(), None, Some("b".to_owned()));
        std::thread::sleep(Duration::from_millis(100));
        lock(&chaos.unanswered).remove("b");
        // No partner can come now: a goes out unswapped, nothing more queued.
        let since = Instant::now();
        while !logged("unswapped 1 a") {
            assert!(since.elapsed() < Duration::from_secs(5), "the drawn reply was held with no partner to come");
            std::thread::sleep(Duration::from_millis(10));
        }
        chaos.to_host_queue.close();
        writer.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
