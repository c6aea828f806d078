//! The session fed by hand: both eras, paging, and hostile lines.

use super::*;
use crate::json::parse_str;

fn start() -> (Session, Vec<Action>) {
    Session::start(Implementation::flow_adapter(), Limits::default())
}

fn writes(actions: &[Action]) -> Vec<Json> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Write(line) => {
                assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "{line}");
                Some(parse_str(line.trim_end(), &Limits::default()).unwrap())
            }
            _ => None,
        })
        .collect()
}

fn get<'j>(json: &'j Json, path: &[&str]) -> &'j Json {
    path.iter().fold(json, |j, k| {
        j.as_object().and_then(|o| o.get(k)).unwrap_or_else(|| panic!("no {k} in {}", json.to_canonical()))
    })
}

fn feed(session: &mut Session, line: &str) -> Vec<Action> {
    session.receive(line.as_bytes())
}

const TOOLS: &str =
    r#"{"tools":[{"name":"add","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}"#;

/// A session that went through the handshake era and is ready.
fn handshake_session() -> Session {
    let (mut s, _) = start();
    feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#);
    feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
    let actions = feed(&mut s, &format!(r#"{{"jsonrpc":"2.0","id":3,"result":{TOOLS}}}"#));
    assert!(actions.contains(&Action::Ready), "{actions:?}");
    s
}

#[test]
fn modern_servers_stay_modern_with_meta_on_every_request() {
    let (mut s, actions) = start();
    let probe = &writes(&actions)[0];
    assert_eq!(get(probe, &["method"]), &Json::str("server/discover"));
    assert_eq!(get(probe, &["params", "_meta", "io.modelcontextprotocol/protocolVersion"]), &Json::str("2026-07-28"));
    assert!(get(probe, &["params", "_meta", "io.modelcontextprotocol/clientCapabilities"])
        .as_object()
        .unwrap()
        .is_empty());

    let actions = feed(
        &mut s,
        r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete"}}"#,
    );
    assert_eq!(s.era(), Some(&Era::Modern));
    let list = &writes(&actions)[0];
    assert_eq!(get(list, &["method"]), &Json::str("tools/list"));
    assert!(get(list, &["params", "_meta"]).as_object().is_some());

    feed(&mut s, &format!(r#"{{"jsonrpc":"2.0","id":2,"result":{TOOLS}}}"#));
    assert!(s.is_ready());
    let call = parse_str(s.call("c1", "add", Object::new()).unwrap().trim_end(), &Limits::default()).unwrap();
    assert_eq!(get(&call, &["id"]), &Json::str("c1"));
    assert_eq!(get(&call, &["params", "name"]), &Json::str("add"));
    assert_eq!(get(&call, &["params", "_meta", "io.modelcontextprotocol/protocolVersion"]), &Json::str("2026-07-28"));
}

#[test]
fn any_error_or_a_timeout_falls_back_to_the_handshake() {
    let s = handshake_session();
    assert_eq!(s.era(), Some(&Era::Handshake("2025-06-18".into())));
    let call = parse_str(handshake_session().call("c1", "add", Object::new()).unwrap().trim_end(), &Limits::default())
        .unwrap();
    assert!(get(&call, &["params"]).as_object().unwrap().get("_meta").is_none());

    // The initialize request, then initialized before tools/list.
    let (mut s, _) = start();
    let actions = s.probe_timed_out();
    let init = &writes(&actions)[0];
    assert_eq!(get(init, &["method"]), &Json::str("initialize"));
    assert_eq!(get(init, &["params", "protocolVersion"]), &Json::str("2025-11-25"));
    assert_eq!(get(init, &["params", "clientInfo", "name"]), &Json::str("flow-mcp-adapter"));
    // A late answer without the modern era is not taken for initialize's.
    let late =
        feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2027-01-01"],"capabilities":{}}}"#);
    assert!(matches!(&late[..], [Action::Log(l)] if l.contains("initialize goes on")), "{late:?}");
    let actions =
        feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
    let lines = writes(&actions);
    assert_eq!(get(&lines[0], &["method"]), &Json::str("notifications/initialized"));
    assert_eq!(get(&lines[1], &["method"]), &Json::str("tools/list"));

    // A server still starting when the probe timed out answers it late in
    // the modern era, then refuses the initialize: the late answer decides.
    let (mut s, _) = start();
    s.probe_timed_out();
    let late =
        feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}"#);
    assert_eq!(get(&writes(&late)[0], &["method"]), &Json::str("tools/list"), "{late:?}");
    let refused = feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"modern only"}}"#);
    assert!(matches!(&refused[..], [Action::Log(l)] if l.contains("not open")), "{refused:?}");
    let listed = feed(&mut s, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#);
    assert!(listed.contains(&Action::Ready), "{listed:?}");

    // A result that is not a discover result, or one without the modern
    // version, falls back too; so does an unreadable answer.
    for answer in [
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2027-01-01"],"capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}"#,
    ] {
        let (mut s, _) = start();
        let actions = feed(&mut s, answer);
        assert_eq!(get(&writes(&actions)[0], &["method"]), &Json::str("initialize"), "{answer}");
    }
}

#[test]
fn a_handshake_that_cannot_finish_fails_the_session() {
    for (init, why) in [
        (r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"1999-01-01","capabilities":{}}}"#, "does not speak"),
        (r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}"#, "error -32602: bad"),
        (r#"{"jsonrpc":"2.0","id":2,"result":[]}"#, "not one"),
    ] {
        let (mut s, _) = start();
        s.probe_timed_out();
        let actions = feed(&mut s, init);
        assert!(matches!(&actions[..], [Action::Failed(w)] if w.contains(why)), "{actions:?}");
        assert!(s.call("c", "add", Object::new()).is_err());
    }
}

#[test]
fn every_page_is_read_and_loops_fail() {
    let (mut s, _) = start();
    s.probe_timed_out();
    feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
    let actions = feed(
        &mut s,
        r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"p2"}}"#,
    );
    assert_eq!(get(&writes(&actions)[0], &["params", "cursor"]), &Json::str("p2"));
    let actions = feed(
        &mut s,
        r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"b","inputSchema":{}},{"name":"a","inputSchema":{"x":1}},{"bad":1}],"nextCursor":"p3"}}"#,
    );
    assert!(actions.iter().any(|a| matches!(a, Action::Log(l) if l.contains("listed twice"))));
    assert!(actions
        .iter()
        .any(|a| matches!(a, Action::Log(l) if l.contains("skipped an entry: $.result.tools[2].name: missing"))));
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"c","inputSchema":{}}]}}"#);
    assert!(actions.contains(&Action::Ready));
    assert_eq!(s.tools().keys().collect::<Vec<_>>(), ["a", "b", "c"]);
    // The first listing of a name is kept.
    assert!(s.tools()["a"].input_schema.as_object().unwrap().is_empty());

    let (mut s, _) = start();
    s.probe_timed_out();
    feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
    feed(&mut s, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[],"nextCursor":"x"}}"#);
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[],"nextCursor":"x"}}"#);
    assert!(matches!(&actions[..], [Action::Failed(w)] if w.contains("loop")), "{actions:?}");
}

#[test]
fn calls_are_answered_by_their_id_and_cancels_close_them() {
    let mut s = handshake_session();
    s.call("c1", "add", Object::new()).unwrap();
    // A second call with the same id (another run's) cannot go out.
    assert!(s.call("c1", "add", Object::new()).unwrap_err().contains("still out"));
    assert!(s.call("c2", "nope", Object::new()).unwrap_err().contains("no longer offers"));
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[]}}"#);
    assert_eq!(
        actions,
        vec![Action::Answered {
            id: "c1".into(),
            answer: Answer::Result(parse_str(r#"{"content":[]}"#, &Limits::default()).unwrap())
        }]
    );
    // Answered once: a second answer is dropped.
    let again = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[]}}"#);
    assert!(matches!(&again[..], [Action::Log(l)] if l.contains("not open")));

    s.call("c3", "add", Object::new()).unwrap();
    let cancel = s.cancel("c3", "cancelled by the Flow host").unwrap();
    let cancel = parse_str(cancel.trim_end(), &Limits::default()).unwrap();
    assert_eq!(get(&cancel, &["method"]), &Json::str("notifications/cancelled"));
    assert_eq!(get(&cancel, &["params", "requestId"]), &Json::str("c3"));
    assert_eq!(s.cancel("c3", "again"), None);
    assert!(matches!(&feed(&mut s, r#"{"jsonrpc":"2.0","id":"c3","result":{}}"#)[..], [Action::Log(_)]));

    s.call("c4", "add", Object::new()).unwrap();
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c4","error":{"code":-32602,"message":"Invalid params"}}"#);
    assert!(matches!(&actions[..], [Action::Answered { answer: Answer::Error(e), .. }] if e.code == -32602));
}

#[test]
fn hostile_lines_never_break_the_session() {
    let mut s = handshake_session();
    s.call("c1", "add", Object::new()).unwrap();
    let huge_number =
        format!(r#"{{"jsonrpc":"2.0","id":"c1","result":{{"structuredContent":{{"n":1{}}}}}}}"#, "0".repeat(5000));
    let lines: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\xff\xfe\x00garbage".to_vec(),
        b"[]".to_vec(),
        b"null".to_vec(),
        br#"{"jsonrpc":"2.0"}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":{},"result":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":99,"result":1}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#.to_vec(),
        br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"disk full"}}"#.to_vec(),
        "[".repeat(100_000).into_bytes(),
    ];
    for line in &lines {
        let actions = s.receive(line);
        assert!(actions.iter().all(|a| matches!(a, Action::Log(_))), "{actions:?}");
    }
    assert!(s.is_ready());
    // An unreadable answer that names its call is that call's answer.
    let actions = feed(&mut s, &huge_number);
    assert!(
        matches!(&actions[..], [Action::Answered { id, answer: Answer::Unreadable(w) }] if id == "c1" && w.contains("[number-too-large]")),
        "{actions:?}"
    );

    // Requests: ping is answered, anything else refused with -32601.
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    assert_eq!(
        writes(&actions),
        vec![parse_str(r#"{"id":"p","jsonrpc":"2.0","result":{}}"#, &Limits::default()).unwrap()]
    );
    let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}"#);
    assert_eq!(get(&writes(&actions)[0], &["error", "code"]).to_canonical(), "-32601");
}
