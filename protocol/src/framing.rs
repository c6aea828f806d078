//! Framing: one message per line, `\n`-terminated (`decisions.md` section 7),
//! read in bounded memory.
//!
//! A line longer than the limit is not kept: the reader keeps at most `limit`
//! bytes, then streams the rest of the line through a [`Skimmer`] and hands
//! back only its length and what the skimmer found, so a hostile peer sending
//! gigabytes without a newline costs the reader nothing but time.

use std::io::{self, BufRead};

use super::skim::{Skim, Skimmer};

/// One line read from a peer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A whole line, without its `\n`, at most the limit long.
    Line(Vec<u8>),
    /// A line longer than the limit: how long it was (without its `\n`) and what
    /// a bounded scan found in it.
    TooLong {
        /// The line's length in bytes, without its `\n`.
        length: u64,
        /// What a bounded scan of the line found.
        skim: Skim,
    },
    /// Bytes after the last `\n` when the stream ended. A crashed peer leaves
    /// half a message here; whether it counts is the caller's choice.
    Unterminated(Vec<u8>),
}

/// Reads [`Frame`]s from a stream.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
}

impl<R: BufRead> LineReader<R> {
    /// `limit` is the largest line kept, in bytes (`Limits::max_bytes`).
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader { inner, limit }
    }

    /// The stream read from (to ask a buffered one what it holds).
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The next frame, or `None` at the end of the stream.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        let mut line = Vec::new();
        let mut skimmer: Option<Skimmer> = None;
        let mut length: u64 = 0;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(match skimmer {
                    // An unterminated line over the limit: still only its skim.
                    Some(s) => Some(Frame::TooLong { length, skim: s.finish() }),
                    None if line.is_empty() => None,
                    None => Some(Frame::Unterminated(line)),
                });
            }
            let (piece, consumed, done) = match newline(chunk) {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            length += piece.len() as u64;
            match &mut skimmer {
                Some(s) => s.feed(piece),
                None if line.len() + piece.len() <= self.limit => line.extend_from_slice(piece),
                None => {
                    let mut s = Skimmer::new();
                    s.feed(&line);
                    s.feed(piece);
                    line = Vec::new();
                    skimmer = Some(s);
                }
            }
            self.inner.consume(consumed);
            if done {
                return Ok(Some(match skimmer {
                    Some(s) => Frame::TooLong { length, skim: s.finish() },
                    None => Frame::Line(line),
                }));
            }
        }
    }
}

impl<R: io::Read> LineReader<io::BufReader<R>> {
    /// Whether a whole line waits in the buffer, so that reading it needs no
    /// `read` (and cannot block).
    pub fn line_waiting(&self) -> bool {
        self.inner.buffer().contains(&b'\n')
    }
}

/// Where the first `\n` of `bytes` is. Blocks of 32 bytes are tested whole
/// (a compare and fold the compiler makes wide) and only the block that holds
/// it is searched byte by byte: a byte-wise search costs several instructions
/// a byte, on every line read.
fn newline(bytes: &[u8]) -> Option<usize> {
    let mut offset = 0;
    for block in bytes.chunks(32) {
        if block.iter().fold(false, |seen, &b| seen | (b == b'\n')) {
            return block.iter().position(|&b| b == b'\n').map(|at| offset + at);
        }
        offset += block.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_is_the_first_one_at_any_offset() {
        assert_eq!(newline(b""), None);
        assert_eq!(newline(&[b'x'; 100]), None);
        for len in [1, 31, 32, 33, 64, 65, 100] {
            for at in 0..len {
                let mut bytes = vec![b'x'; len];
                bytes[at] = b'\n';
                if at + 2 < len {
                    bytes[at + 2] = b'\n';
                }
                assert_eq!(newline(&bytes), Some(at), "{len} {at}");
            }
        }
    }

    fn frames(input: &[u8], limit: usize, capacity: usize) -> Vec<Frame> {
        let mut reader = LineReader::new(std::io::BufReader::with_capacity(capacity, input), limit);
        let mut out = Vec::new();
        while let Some(frame) = reader.next_frame().unwrap() {
            out.push(frame);
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_an_unterminated_tail_apart() {
        for capacity in [1, 2, 7, 8192] {
            let got = frames(b"ab\n\ncd\nef", 10, capacity);
            assert_eq!(
                got,
                vec![
                    Frame::Line(b"ab".to_vec()),
                    Frame::Line(Vec::new()),
                    Frame::Line(b"cd".to_vec()),
                    Frame::Unterminated(b"ef".to_vec())
                ]
            );
        }
    }

    #[test]
    fn a_line_at_the_limit_is_kept_one_over_is_skimmed() {
        let at = format!("{}\n", "x".repeat(10));
        assert_eq!(frames(at.as_bytes(), 10, 3), vec![Frame::Line(b"x".repeat(10))]);
        let over = r#"{"method":"reply","params":{"call":"c","outcome":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","run":"r"}}"#;
        let input = format!("{over}\nok\n");
        for capacity in [1, 5, 8192] {
            let got = frames(input.as_bytes(), 20, capacity);
            assert_eq!(got.len(), 2);
            match &got[0] {
                Frame::TooLong { length, skim } => {
                    assert_eq!(*length, over.len() as u64);
                    assert_eq!(skim.pair(), Some(("r".to_owned(), "c".to_owned())));
                }
                other => panic!("{other:?}"),
            }
            assert_eq!(got[1], Frame::Line(b"ok".to_vec()));
        }
    }
}
