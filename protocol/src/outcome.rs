//! Outcomes ("The Tool process protocol", reply): the four an implementation
//! sends, and on the host side the fifth, BadReply, that only the runtime
//! decides and that is never sent.

use flow_core::decode::from_json;
use flow_core::error::{Path, Rule};
use flow_core::json::{write_string, Json};
use flow_core::plan::{NodeId, Plan};
use flow_core::value::Value;

/// An outcome as it crosses the wire. Values are held as canonical text: the
/// sender has already checked them at their declared type, and the text is
/// what is written (and remembered for a re-sent call).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// `{"Ok": value}`: the canonical text of the declared success value.
    Ok(String),
    /// `{"Failed": error}`: the canonical text of the declared error value.
    Failed(String),
    /// `{"NotRun": "reason"}`: the call definitely did not happen.
    NotRun(String),
    /// `{"Unknown": "reason"}`: the call may or may not have happened.
    Unknown(String),
}

impl Outcome {
    /// The `Ok` outcome of `value`.
    pub fn ok(value: &Value) -> Outcome {
        Outcome::Ok(value.to_canonical())
    }

    /// The `Failed` outcome of `value`.
    pub fn failed(value: &Value) -> Outcome {
        Outcome::Failed(value.to_canonical())
    }

    /// Appends the outcome object's canonical text.
    pub fn write(&self, out: &mut String) {
        let (tag, body, is_text) = match self {
            Outcome::Ok(v) => ("Ok", v, false),
            Outcome::Failed(v) => ("Failed", v, false),
            Outcome::NotRun(r) => ("NotRun", r, true),
            Outcome::Unknown(r) => ("Unknown", r, true),
        };
        out.push_str("{\"");
        out.push_str(tag);
        out.push_str("\":");
        if is_text {
            write_string(out, body);
        } else {
            out.push_str(body);
        }
        out.push('}');
    }

    /// The outcome object's canonical text.
    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }
}

/// A call's outcome as the host admits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallOutcome {
    /// The call succeeded with this value, decoded at the success type.
    Ok(Value),
    /// The call failed with this value, decoded at the error type.
    Failed(Value),
    /// The call definitely did not happen, and why.
    NotRun(String),
    /// The call may or may not have happened, and why.
    Unknown(String),
    /// A reply that did not decode at the declared type, was larger than the
    /// size limit, or held a malformed outcome. Decided here, never sent.
    BadReply(String),
}

impl CallOutcome {
    /// Whether the call succeeded.
    pub fn is_ok(&self) -> bool {
        matches!(self, CallOutcome::Ok(_))
    }

    /// The case's name: `Ok`, `Failed`, `NotRun`, `Unknown` or `BadReply`.
    pub fn case(&self) -> &'static str {
        match self {
            CallOutcome::Ok(_) => "Ok",
            CallOutcome::Failed(_) => "Failed",
            CallOutcome::NotRun(_) => "NotRun",
            CallOutcome::Unknown(_) => "Unknown",
            CallOutcome::BadReply(_) => "BadReply",
        }
    }

    /// The reason of NotRun, Unknown and BadReply.
    pub fn reason(&self) -> Option<&str> {
        match self {
            CallOutcome::NotRun(r) | CallOutcome::Unknown(r) | CallOutcome::BadReply(r) => Some(r),
            CallOutcome::Ok(_) | CallOutcome::Failed(_) => None,
        }
    }

    /// `{"Case": payload}` in canonical text, BadReply written like the others
    /// (for people and logs; it never goes on the wire).
    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        out.push_str("{\"");
        out.push_str(self.case());
        out.push_str("\":");
        match self {
            CallOutcome::Ok(v) | CallOutcome::Failed(v) => v.write_canonical(&mut out),
            CallOutcome::NotRun(r) | CallOutcome::Unknown(r) | CallOutcome::BadReply(r) => write_string(&mut out, r),
        }
        out.push('}');
        out
    }
}

/// Where the declared types of one call's reply live in a compiled plan.
#[derive(Debug, Clone, Copy)]
pub struct ReplyTypes<'p> {
    /// The plan the nodes index.
    pub plan: &'p Plan,
    /// The node of the success type.
    pub ok: NodeId,
    /// The node of the error type.
    pub err: NodeId,
}

/// The host's reading of a reply's `outcome` member: decoded at the declared
/// types, or BadReply naming the path (from the message root) and the rule.
pub fn admit(outcome: Json, types: ReplyTypes<'_>) -> CallOutcome {
    let at = Path::root().key("params").key("outcome");
    let malformed =
        |why: String| CallOutcome::BadReply(format!("{at}: malformed outcome: {why} [{}]", Rule::Shape.code()));
    let members = match outcome {
        Json::Object(o) if o.len() == 1 => o.into_members(),
        Json::Object(o) => return malformed(format!("an object with {} members, not one", o.len())),
        other => return malformed(format!("{}, not an object", other.kind_name())),
    };
    let (tag, body) = members.into_iter().next().expect("one member");
    let reason = |body: Json, tag: &str| match body {
        Json::String(s) => Ok(s),
        other => Err(malformed(format!("{tag} holds {}, not a string", other.kind_name()))),
    };
    match tag.as_str() {
        "Ok" => match from_json(body, types.plan, types.ok) {
            Ok(v) => CallOutcome::Ok(v),
            Err(e) => CallOutcome::BadReply(e.under_path(&at.key("Ok")).to_string()),
        },
        "Failed" => match from_json(body, types.plan, types.err) {
            Ok(v) => CallOutcome::Failed(v),
            Err(e) => CallOutcome::BadReply(e.under_path(&at.key("Failed")).to_string()),
        },
        "NotRun" => reason(body, "NotRun").map_or_else(|e| e, CallOutcome::NotRun),
        "Unknown" => reason(body, "Unknown").map_or_else(|e| e, CallOutcome::Unknown),
        other => malformed(format!("unknown case {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::json::parse_str;
    use flow_core::types::{Prim, Term};
    use flow_core::Limits;

    fn admit_text(text: &str) -> CallOutcome {
        let (mut plan, ok) = Plan::compile(&Default::default(), &Term::List(Box::new(Term::Prim(Prim::Int)))).unwrap();
        let err = plan.add(&Default::default(), &Term::Prim(Prim::Text)).unwrap();
        admit(parse_str(text, &Limits::default()).unwrap(), ReplyTypes { plan: &plan, ok, err })
    }

    #[test]
    fn the_four_cases_are_admitted_at_their_types() {
        assert_eq!(admit_text(r#"{"Ok":[1,2e0]}"#).to_canonical(), r#"{"Ok":[1,2]}"#);
        assert_eq!(admit_text(r#"{"Failed":"no"}"#).to_canonical(), r#"{"Failed":"no"}"#);
        assert_eq!(admit_text(r#"{"NotRun":"r"}"#), CallOutcome::NotRun("r".into()));
        assert_eq!(admit_text(r#"{"Unknown":"r"}"#), CallOutcome::Unknown("r".into()));
    }

    #[test]
    fn bad_replies_name_path_and_rule() {
        let bad = |t: &str| match admit_text(t) {
            CallOutcome::BadReply(r) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            bad(r#"{"Ok":[1,"x"]}"#),
            "$.params.outcome.Ok[1]: expected an Int (a number), found a string [type]"
        );
        assert!(bad(r#"{"Ok":[1],"Failed":"x"}"#).ends_with("[shape]"));
        assert!(bad(r#"{"Maybe":1}"#).contains("unknown case"));
        assert!(bad(r#"{"NotRun":1}"#).contains("not a string"));
        assert!(bad(r#""Ok""#).contains("not an object"));
    }

    #[test]
    fn wire_text_is_canonical() {
        assert_eq!(Outcome::NotRun("a\"b".into()).to_canonical(), r#"{"NotRun":"a\"b"}"#);
        assert_eq!(Outcome::ok(&Value::Text("é".into())).to_canonical(), r#"{"Ok":"é"}"#);
    }
}
