//! Types that cannot cross (`flow_core::types::crossing`): refused on the type,
//! whatever the value, with a message that names the position inside the type.
//! The decoding matrix is in `tests/vectors/decode-crossing.json`, run by every
//! binding; here: messages, where the refusal is placed in a listing, encoding,
//! schemas and generic signatures (the work bound is a unit test beside the
//! predicate).

use crate::support::weather_model::term_text;
use flow_core::fingerprint::fingerprint;
use flow_core::plan::Plan;
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::types::{
    crossing, listing_from_json, tool_crossing, Body, Declarations, Field, Listing, Template, Term,
};
use flow_core::{json, Limits, Rule};

/// The listing of the crossing vectors.
fn listing() -> Listing {
    let text = include_str!("../../../tests/vectors/decode-crossing.json");
    let file = json::parse_str(text, &Limits::default()).unwrap();
    listing_from_json(file.as_object().unwrap().get("listing").unwrap()).unwrap()
}

fn named(declaration: &str, args: &[&str]) -> String {
    let args: Vec<&str> = args.to_vec();
    format!(r#"{{"Named": {{"declaration": "{declaration}", "args": [{}]}}}}"#, args.join(","))
}

fn refusal(listing: &Listing, term: &str) -> flow_core::Error {
    crossing(&term_text(term), &listing.declarations, &[]).expect_err(term)
}

#[test]
fn the_message_names_the_way_to_what_cannot_cross() {
    let l = listing();
    let holder = refusal(&l, &named("holder", &[]));
    assert_eq!(holder.rule, Rule::CannotCross);
    assert_eq!(holder.path.to_string(), "$");
    assert!(
        holder.message.starts_with("Holder cannot cross: at field \"callback\" of Holder, fn(Int)->Text is a function"),
        "{}",
        holder.message
    );

    let tree = refusal(&l, &named("tree", &[r#"{"Option": {"Task": "Int"}}"#]));
    assert!(
        tree.message.contains(
            r#"at field "value" of Tree<Option<Task<Int>>>, the payload of Option<Task<Int>>, Task<Int> is a Task"#
        ),
        "{}",
        tree.message
    );

    let event = refusal(&l, &format!(r#"{{"List": {}}}"#, named("event", &[])));
    assert!(
        event.message.contains("the items of List<Event>, part 1 of constructor Running of Event, Task<Int> is a Task"),
        "{}",
        event.message
    );

    let signal = refusal(&l, &named("signal", &[]));
    assert!(signal.message.contains(r#"field "then" of constructor Call of Signal"#), "{}", signal.message);

    let machine = refusal(&l, &format!(r#"{{"Dict": ["Text", {}]}}"#, named("machine", &[])));
    assert!(
        machine.message.contains("the values of Dict<Text,Machine>, Machine is a nondata type"),
        "{}",
        machine.message
    );

    let keys = refusal(&l, &format!(r#"{{"Dict": [{}, "Int"]}}"#, named("keyed", &[])));
    assert!(
        keys.message.contains("has keys that hold a host token (Token)")
            && keys.message.contains("Key the Dict by data"),
        "{}",
        keys.message
    );

    let set = refusal(&l, &format!(r#"{{"Option": {{"Set": {}}}}}"#, named("box", &[&named("token", &[])])));
    assert!(set.message.contains("Set<Box<Token>> has elements that hold a host token (Token)"), "{}", set.message);
}

#[test]
fn no_plan_holds_a_type_that_cannot_cross_so_nothing_encodes_at_it() {
    let l = listing();
    for term in [
        r#"{"List": {"Function": {"params": [], "result": "Unit"}}}"#.to_owned(),
        r#"{"Option": {"Task": "Int"}}"#.to_owned(),
        format!(r#"{{"Set": {}}}"#, named("keyed", &[])),
        named("maybe", &[]),
    ] {
        let error = Plan::compile(&l.declarations, &term_text(&term)).expect_err(&term);
        assert_eq!(error.rule, Rule::CannotCross, "{term}: {error}");
        // A plan holding other roots refuses this one alone.
        let mut plan = Plan::new();
        plan.add(&l.declarations, &term_text(r#""Int""#)).unwrap();
        assert_eq!(plan.add(&l.declarations, &term_text(&term)).unwrap_err().rule, Rule::CannotCross);
    }
}

#[test]
fn schemas_and_fingerprints_refuse_what_cannot_cross() {
    let l = listing();
    let tokens = l.tool("github.com/example/crossing@1.0.0/cross.flow.tokens").unwrap();
    assert_eq!(fingerprint(tokens, &l.declarations).unwrap_err().rule, Rule::CannotCross);
    let set_of_keyed = term_text(&format!(r#"{{"Set": {}}}"#, named("keyed", &[])));
    assert_eq!(
        schema_of(&set_of_keyed, &l.declarations, SchemaForm::Describe, &[]).unwrap_err().rule,
        Rule::CannotCross
    );
    let fine = l.tool("github.com/example/crossing@1.0.0/cross.flow.fine").unwrap();
    assert!(fingerprint(fine, &l.declarations).is_ok());
}

#[test]
fn a_tool_is_refused_at_the_member_that_holds_the_term() {
    let l = listing();
    let error = tool_crossing(&l.tools[0], 0, &l.declarations).unwrap_err();
    assert_eq!((error.rule, error.path.to_string()), (Rule::CannotCross, "$.tools[0].params[0].type".to_owned()));
    assert!(
        error
            .message
            .starts_with("github.com/example/crossing@1.0.0/cross.flow.everything: parameter p0: Holder cannot cross"),
        "{}",
        error.message
    );
    let error = tool_crossing(&l.tools[1], 1, &l.declarations).unwrap_err();
    assert_eq!(error.path.to_string(), "$.tools[1].params[0].type");
    tool_crossing(&l.tools[2], 2, &l.declarations).unwrap();

    let mut ok_holds_a_task = l.tools[2].clone();
    ok_holds_a_task.ok = term_text(r#"{"List": {"Task": "Int"}}"#);
    assert_eq!(tool_crossing(&ok_holds_a_task, 2, &l.declarations).unwrap_err().path.to_string(), "$.tools[2].ok");
    let mut err_holds_a_set_of_tokens = l.tools[2].clone();
    err_holds_a_set_of_tokens.err = term_text(&format!(r#"{{"Set": {}}}"#, named("token", &[])));
    assert_eq!(
        tool_crossing(&err_holds_a_set_of_tokens, 2, &l.declarations).unwrap_err().path.to_string(),
        "$.tools[2].err"
    );
}

#[test]
fn what_can_cross_does() {
    let l = listing();
    let param = r#"{"Param": {"owner": "tool", "index": 0}}"#;
    for term in [
        named("tree", &[r#""Int""#]),
        named("phantom", &[r#"{"Function": {"params": [], "result": "Unit"}}"#]),
        format!(r#"{{"Set": {}}}"#, named("phantom", &[&named("token", &[])])),
        format!(r#"{{"Dict": ["Text", {}]}}"#, named("token", &[])),
        format!(r#"{{"Dict": ["Int", {}]}}"#, named("keyed", &[])),
        format!(r#"{{"List": {}}}"#, named("keyed", &[])),
        // A generic Tool's own parameter: what it is bound to is decided per call.
        format!(r#"{{"Set": {param}}}"#),
        format!(r#"{{"Dict": [{param}, "Int"]}}"#),
    ] {
        crossing(&term_text(&term), &l.declarations, &["T".to_owned()]).unwrap_or_else(|e| panic!("{term}: {e}"));
    }
}

/// Declarations no validation has seen: a parameter index past the
/// arguments is a refusal, not a panic.
#[test]
fn an_unvalidated_parameter_index_is_refused() {
    let template = Template {
        name: "Bad".into(),
        identity: "f.flow.Bad".into(),
        lexical_ordinal: 1,
        generic: vec!["T".into()],
        opaque: false,
        doc: None,
        body: Body::Record {
            fields: vec![Field { name: "x".into(), ty: Term::Param { owner: "1".into(), index: 3 }, doc: None }],
        },
    };
    let declarations: Declarations = [("1".to_owned(), template)].into_iter().collect();
    let root = Term::Named { declaration: "1".into(), args: vec![term_text(r#""Int""#)] };
    assert_eq!(crossing(&root, &declarations, &[]).unwrap_err().rule, Rule::ParamIndex);
}
