//! Correlating a line that cannot be read: a bounded-memory scan for its
//! `method`, `params.run` and `params.call`, and its top-level `id` when that
//! is a string (how an MCP response names the call it answers, see
//! `flow_mcp`).
//!
//! A line over the size limit is never read into a tree, and a line that JSON
//! reading refuses (a number past the digit limit, too deep, a duplicate key,
//! cut short) has no tree at all. Yet the spec gives such a line an outcome
//! that belongs to one call: a reply larger than the host's limit is BadReply,
//! and a call whose args are past a limit is NotRun. Without the pair the call
//! would stay open forever. So both sides run this scanner over the bytes as
//! they stream past: it follows strings and brackets only, keeps one small
//! state per nesting level for the two outermost levels, and captures at most
//! [`MAX_CAPTURE`] bytes per string, so its memory does not grow with the line.
//!
//! It does not validate: on garbage it finds what it finds, and a pair it finds
//! in a malformed line is still the pair the sender meant, which is what
//! attribution needs.

use flow_core::json::{self, Json};
use flow_core::limits::Limits;

/// The longest string the scanner keeps. Run and call ids and method names are
/// short; a longer one is not captured.
pub const MAX_CAPTURE: usize = 4096;

/// What a scan found. Each member is the first string value seen at its place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skim {
    /// The top-level `method`.
    pub method: Option<String>,
    /// `params.run`.
    pub run: Option<String>,
    /// `params.call`.
    pub call: Option<String>,
    /// The top-level `id`, when it is a string.
    pub id: Option<String>,
}

impl Skim {
    /// The (run, call) pair, when both were found.
    pub fn pair(&self) -> Option<(String, String)> {
        Some((self.run.clone()?, self.call.clone()?))
    }

    /// Scans a whole line at once.
    pub fn of(line: &[u8]) -> Skim {
        let mut skimmer = Skimmer::new();
        skimmer.feed(line);
        skimmer.finish()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Other,
    Method,
    Params,
    Run,
    Call,
    Id,
}

#[derive(Debug, Clone, Copy)]
struct Level {
    object: bool,
    expecting_key: bool,
    key: Key,
}

const FRESH: Level = Level { object: false, expecting_key: false, key: Key::Other };

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Ignore,
    KeyAt(usize),
    Method,
    Run,
    Call,
    Id,
}

/// A push scanner: feed it the line in pieces, then `finish`.
#[derive(Debug)]
pub struct Skimmer {
    /// Nesting depth; only levels 1 and 2 keep state.
    depth: u64,
    levels: [Level; 2],
    in_string: bool,
    escape: bool,
    role: Role,
    capture: Vec<u8>,
    overflow: bool,
    found: Skim,
}

impl Default for Skimmer {
    fn default() -> Self {
        Skimmer::new()
    }
}

impl Skimmer {
    pub fn new() -> Skimmer {
        Skimmer {
            depth: 0,
            levels: [FRESH; 2],
            in_string: false,
            escape: false,
            role: Role::Ignore,
            capture: Vec::new(),
            overflow: false,
            found: Skim::default(),
        }
    }

    fn level(&mut self) -> Option<&mut Level> {
        match self.depth {
            1 | 2 => Some(&mut self.levels[self.depth as usize - 1]),
            _ => None,
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.in_string {
                self.string_byte(b);
                continue;
            }
            match b {
                b'"' => self.start_string(),
                b'{' | b'[' => {
                    self.depth += 1;
                    if let Some(level) = self.level() {
                        *level = Level { object: b == b'{', expecting_key: b == b'{', key: Key::Other };
                    }
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                b':' => {
                    if let Some(level) = self.level().filter(|l| l.object) {
                        level.expecting_key = false;
                    }
                }
                b',' => {
                    if let Some(level) = self.level().filter(|l| l.object) {
                        level.expecting_key = true;
                        level.key = Key::Other;
                    }
                }
                _ => {}
            }
        }
    }

    fn start_string(&mut self) {
        self.in_string = true;
        self.escape = false;
        self.capture.clear();
        self.overflow = false;
        let depth = self.depth;
        let [outer, inner] = self.levels;
        self.role = match depth {
            1 if outer.object && outer.expecting_key => Role::KeyAt(0),
            1 if outer.object && outer.key == Key::Method => Role::Method,
            1 if outer.object && outer.key == Key::Id => Role::Id,
            2 if outer.key == Key::Params && inner.object && inner.expecting_key => Role::KeyAt(1),
            2 if outer.key == Key::Params && inner.object && inner.key == Key::Run => Role::Run,
            2 if outer.key == Key::Params && inner.object && inner.key == Key::Call => Role::Call,
            _ => Role::Ignore,
        };
    }

    fn string_byte(&mut self, b: u8) {
        let end = !self.escape && b == b'"';
        self.escape = !self.escape && b == b'\\';
        if !end {
            if self.role != Role::Ignore {
                if self.capture.len() < MAX_CAPTURE {
                    self.capture.push(b);
                } else {
                    self.overflow = true;
                }
            }
            return;
        }
        self.in_string = false;
        if self.role == Role::Ignore || self.overflow {
            return;
        }
        let text = unescape(&self.capture);
        match (self.role, text) {
            (Role::KeyAt(i), text) => {
                let key = match (i, text.as_deref()) {
                    (0, Some("method")) => Key::Method,
                    (0, Some("params")) => Key::Params,
                    (0, Some("id")) => Key::Id,
                    (1, Some("run")) => Key::Run,
                    (1, Some("call")) => Key::Call,
                    _ => Key::Other,
                };
                self.levels[i].key = key;
            }
            (Role::Method, Some(t)) => {
                self.found.method.get_or_insert(t);
            }
            (Role::Run, Some(t)) => {
                self.found.run.get_or_insert(t);
            }
            (Role::Call, Some(t)) => {
                self.found.call.get_or_insert(t);
            }
            (Role::Id, Some(t)) => {
                self.found.id.get_or_insert(t);
            }
            _ => {}
        }
    }

    pub fn finish(self) -> Skim {
        self.found
    }
}

/// The text of a captured string body, under JSON's own rules.
fn unescape(raw: &[u8]) -> Option<String> {
    let mut quoted = Vec::with_capacity(raw.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(raw);
    quoted.push(b'"');
    match json::parse(&quoted, &Limits::default()) {
        Ok(Json::String(s)) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_pair_wherever_the_members_are() {
        let line = br#"{"jsonrpc":"2.0","method":"reply","params":{"call":"c\"1","outcome":{"Ok":{"run":"no","x":[1,{"call":"no"}]}},"run":"r1"}}"#;
        let skim = Skim::of(line);
        assert_eq!(skim.method.as_deref(), Some("reply"));
        assert_eq!(skim.pair(), Some(("r1".to_owned(), "c\"1".to_owned())));
    }

    #[test]
    fn fed_in_pieces_gives_the_same() {
        let line = br#"{"params":{"run":"r","args":{"a":"}]\"{"},"call":"c"},"method":"call"}"#;
        let mut skimmer = Skimmer::new();
        for piece in line.chunks(3) {
            skimmer.feed(piece);
        }
        let skim = skimmer.finish();
        assert_eq!(skim, Skim::of(line));
        assert_eq!(skim.pair(), Some(("r".to_owned(), "c".to_owned())));
        assert_eq!(skim.method.as_deref(), Some("call"));
    }

    #[test]
    fn ignores_members_of_other_objects_and_long_strings() {
        let long = "x".repeat(MAX_CAPTURE + 1);
        let line =
            format!(r#"{{"run":"top","other":{{"run":"a","call":"b"}},"params":{{"run":"{long}","call":"c"}}}}"#);
        let skim = Skim::of(line.as_bytes());
        assert_eq!(skim.run, None);
        assert_eq!(skim.call.as_deref(), Some("c"));
    }

    #[test]
    fn finds_a_top_level_string_id_only() {
        let line = br#"{"result":{"id":"inner","structuredContent":{"n":1e99999}},"jsonrpc":"2.0","id":"call \"7\""}"#;
        assert_eq!(Skim::of(line).id.as_deref(), Some("call \"7\""));
        assert_eq!(Skim::of(br#"{"id":7,"result":{"id":"inner"}}"#).id, None);
    }

    #[test]
    fn garbage_and_deep_nesting_find_nothing_and_do_not_fail() {
        assert_eq!(Skim::of(b"\xff\xfe not json ]]]}}}"), Skim::default());
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert_eq!(Skim::of(deep.as_bytes()), Skim::default());
    }
}
