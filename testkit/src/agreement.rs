//! Cross-language agreement (issue 8, item 2): the case files Rust writes for
//! the Python and Node checkers (`tests/crosslang/`), and the comparison of
//! what they wrote back with what Rust expects.
//!
//! `values.jsonl`, one line per random type:
//! `{"seed", "listing", "type", "texts": [canonical text, ...]}`; each checker
//! decodes every text at the type through its binding's public API and
//! encodes the result again, which must give the text back byte for byte.
//!
//! `json.jsonl`, one line per random JSON text: `{"seed", "hex"}` (bytes, as
//! some are not UTF-8); each checker canonicalizes it, and the result must be
//! Rust's canonical text, or a refusal with Rust's rule and path.
//!
//! A checker writes `<file>.<lang>.jsonl` with one line per input line,
//! `{"results": [...]}`: for each case of the line in turn (each text of a
//! type, or the one JSON text), one result per way the binding has of
//! answering it (a line may use more ways than another), each `{"text": T}`
//! or `{"rule": R, "path": P}` or `{"crash": WHY}`.

use std::fmt::Write as _;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use flow_core::decode::decode_with;
use flow_core::json::{self, Json, Object};
use flow_core::plan::Plan;
use flow_core::{Limits, Number};

use crate::listing::{listing_text, term_text};
use crate::random_json::random_json_text;
use crate::random_types::random_type;
use crate::random_values::random_value;
use crate::Rng;

/// Values per random type: a Python and a Node codec are built once per type.
pub const VALUES_PER_TYPE: usize = 10;

/// What a checker must answer for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    Text(String),
    Refused { rule: String, path: String },
}

impl Expected {
    fn describe(&self) -> String {
        match self {
            Expected::Text(t) => format!("text {}", Json::str(t.as_str()).to_canonical()),
            Expected::Refused { rule, path } => format!("refused [{rule}] at {path}"),
        }
    }
}

/// One input and what it must give.
pub struct Case {
    /// Which file, line and item, and the seed that regenerates it.
    pub origin: String,
    pub expected: Expected,
}

fn num(n: u64) -> Json {
    Json::Number(Number::from_parts(false, &n.to_string(), 0))
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Writes `values.jsonl` for `count` values (rounded up to whole types) from
/// `seed`, and returns what each must give back: its own text.
pub fn write_values(dir: &Path, seed: u64, count: usize) -> std::io::Result<Vec<Vec<Case>>> {
    let mut out = BufWriter::new(fs::File::create(dir.join("values.jsonl"))?);
    let mut all = Vec::new();
    for i in 0..count.div_ceil(VALUES_PER_TYPE) {
        let type_seed = seed.wrapping_add(i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let (declarations, root) = random_type(type_seed);
        let (plan, node) = Plan::compile(&declarations, &root).unwrap_or_else(|e| panic!("type seed {type_seed}: {e}"));
        let mut rng = Rng::new(type_seed ^ 0x5555);
        let mut texts = Vec::new();
        let mut cases = Vec::new();
        for v in 0..VALUES_PER_TYPE {
            let value = random_value(&plan, node, &mut rng, 4);
            let text = value.to_canonical();
            // Rust agrees with itself first: a failure here is Rust's own.
            let decoded = decode_with(text.as_bytes(), &plan, node, &Limits::default())
                .unwrap_or_else(|e| panic!("type seed {type_seed}, value {v}: Rust refuses its own text {text}: {e}"));
            assert_eq!(decoded.to_canonical(), text, "type seed {type_seed}, value {v}: Rust re-encodes differently");
            cases.push(Case {
                origin: format!("values.jsonl line {} (type seed {type_seed}) value {v}", i + 1),
                expected: Expected::Text(text.clone()),
            });
            texts.push(Json::String(text));
        }
        let mut line = Object::new();
        line.insert("seed", num(type_seed));
        line.insert("listing", Json::String(listing_text(&declarations, &root)));
        line.insert("type", Json::String(term_text(&root)));
        line.insert("texts", Json::Array(texts));
        writeln!(out, "{}", Json::Object(line).to_canonical())?;
        all.push(cases);
    }
    out.flush()?;
    Ok(all)
}

/// Writes `json.jsonl` with `count` random JSON texts from `seed`, and
/// returns what canonicalizing each must give.
pub fn write_json(dir: &Path, seed: u64, count: usize) -> std::io::Result<Vec<Case>> {
    let mut out = BufWriter::new(fs::File::create(dir.join("json.jsonl"))?);
    let mut all = Vec::new();
    for i in 0..count {
        let text_seed = seed.wrapping_add(i as u64).wrapping_mul(0xd1b5_4a32_d192_ed03) ^ 0xabcd;
        let bytes = random_json_text(text_seed);
        let expected = match json::canonicalize(&bytes, &Limits::default()) {
            Ok(text) => Expected::Text(text),
            Err(e) => Expected::Refused { rule: e.rule.code().to_owned(), path: e.path.to_string() },
        };
        let mut line = Object::new();
        line.insert("seed", num(text_seed));
        line.insert("hex", Json::String(hex(&bytes)));
        writeln!(out, "{}", Json::Object(line).to_canonical())?;
        all.push(Case { origin: format!("json.jsonl line {} (text seed {text_seed})", i + 1), expected });
    }
    out.flush()?;
    Ok(all)
}

/// What a checker answered for one input.
fn answer(result: &Json) -> Result<Expected, String> {
    let o = result.as_object().ok_or("a result that is not an object")?;
    if let Some(text) = o.get("text").and_then(Json::as_str) {
        return Ok(Expected::Text(text.to_owned()));
    }
    match (o.get("rule").and_then(Json::as_str), o.get("path").and_then(Json::as_str)) {
        (Some(rule), Some(path)) => Ok(Expected::Refused { rule: rule.to_owned(), path: path.to_owned() }),
        _ => Err(o.get("crash").map(Json::to_canonical).unwrap_or_else(|| result.to_canonical())),
    }
}

/// Compares a checker's output file with the expected answers, line by
/// line (each line answers one group of cases, each case once per way the
/// checker has of answering it). Returns the number of answers compared and
/// the disagreements.
pub fn compare(lang: &str, output: &Path, expected: &[Vec<&Case>]) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let text = match fs::read_to_string(output) {
        Ok(t) => t,
        Err(e) => return (0, vec![format!("{lang}: no output {}: {e}", output.display())]),
    };
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != expected.len() {
        problems.push(format!("{lang}: {} lines for {} inputs", lines.len(), expected.len()));
    }
    let mut compared = 0;
    for (line, cases) in lines.iter().zip(expected) {
        let parsed = json::parse_str(line, &Limits { max_bytes: usize::MAX, ..Limits::default() });
        let results = match parsed
            .as_ref()
            .ok()
            .and_then(|j| j.as_object())
            .and_then(|o| o.get("results"))
            .and_then(|r| r.as_array())
        {
            Some(r) => r.to_vec(),
            None => {
                problems.push(format!("{lang}: an unreadable line for {}", cases[0].origin));
                continue;
            }
        };
        // A checker may answer each case in several ways (Node decodes, and
        // also goes through parse/fromJson): results come case by case.
        if cases.is_empty() || results.len() % cases.len() != 0 {
            problems.push(format!(
                "{lang}: {} results for {} cases at {}",
                results.len(),
                cases.len(),
                cases[0].origin
            ));
            continue;
        }
        let ways = results.len() / cases.len();
        for (i, result) in results.iter().enumerate() {
            let case = cases[i / ways];
            compared += 1;
            match answer(result) {
                Ok(got) if got == case.expected => {}
                Ok(got) => problems.push(format!(
                    "{lang} (way {}) disagrees at {}: expected {}, got {}",
                    i % ways,
                    case.origin,
                    case.expected.describe(),
                    got.describe()
                )),
                Err(why) => problems.push(format!("{lang} (way {}) failed at {}: {why}", i % ways, case.origin)),
            }
        }
    }
    (compared, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(expected: Expected) -> Case {
        Case { origin: "test".into(), expected }
    }

    /// The comparison is really made: a different text, another rule or path,
    /// a crash and a missing line are each a problem; the same answers none.
    #[test]
    fn compare_reports_every_disagreement() {
        let dir = std::env::temp_dir().join(format!("flow-agreement-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let text = case(Expected::Text("[1]".into()));
        let refused = case(Expected::Refused { rule: "utf8".into(), path: "$".into() });
        let groups = vec![vec![&text, &refused], vec![&text, &refused]];
        let file = dir.join("out.jsonl");
        let agree = r#"{"results":[{"text":"[1]"},{"rule":"utf8","path":"$"}]}"#;
        fs::write(&file, format!("{agree}\n{agree}\n")).unwrap();
        assert_eq!(compare("x", &file, &groups), (4, vec![]));
        let disagree = r#"{"results":[{"text":"[1.0]"},{"rule":"syntax","path":"$"}]}"#;
        let crash = r#"{"results":[{"crash":"TypeError"},{"rule":"utf8","path":"$[0]"}]}"#;
        fs::write(&file, format!("{disagree}\n{crash}\n")).unwrap();
        assert_eq!(compare("x", &file, &groups).1.len(), 4);
        fs::write(&file, format!("{agree}\n")).unwrap();
        assert_eq!(compare("x", &file, &groups).1.len(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
