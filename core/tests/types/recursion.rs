//! Recursion (`flow_core::types::recursion`): expanding recursion refused, long chains walked without recursing.

use super::*;

#[test]
fn expanding_recursion() {
    // Tree<T> may hold List<Tree<T>>.
    let tree = record(
        "Tree",
        &["T"],
        &[("value", &param("1", "0")), ("children", &format!(r#"{{"List":{}}}"#, named("1", &[&param("1", "0")])))],
    );
    accept(&returning(&named("1", &["\"Int\""]), &[("1", tree)]));
    // Never Tree<List<T>>.
    let bad = record(
        "Tree",
        &["T"],
        &[("value", &param("1", "0")), ("deeper", &named("1", &[&format!(r#"{{"List":{}}}"#, param("1", "0"))]))],
    );
    let text = returning(&named("1", &["\"Int\""]), &[("1", bad)]);
    expect(&text, "expanding-recursion", r#"$.declarations["1"].fields[1].type"#);
    assert!(listing(&text).unwrap_err().message.contains("Tree passes List<T> as argument 0 of Tree"));
    // Swapping parameters around a cycle does not expand.
    let pair = record(
        "Pair",
        &["A", "B"],
        &[
            ("a", &param("1", "0")),
            ("swap", &format!(r#"{{"Option":{}}}"#, named("1", &[&param("1", "1"), &param("1", "0")]))),
        ],
    );
    accept(&returning(&named("1", &["\"Int\"", "\"Text\""]), &[("1", pair)]));
    // Through two declarations: A<T> holds B<Option<T>>, B<U> holds A<U>.
    let a = record("A", &["T"], &[("b", &named("b", &[&format!(r#"{{"Option":{}}}"#, param("a", "0"))]))]);
    let b = record("B", &["U"], &[("a", &format!(r#"{{"List":{}}}"#, named("a", &[&param("b", "0")])))]);
    expect(
        &returning(&named("a", &["\"Int\""]), &[("a", a.clone()), ("b", b)]),
        "expanding-recursion",
        r#"$.declarations.a.fields[0].type"#,
    );
    // Unused arguments count too: A<T> holding A<Ph<T>> expands even though
    // Ph ignores its parameter.
    let unused =
        record("A", &["T"], &[("x", &format!(r#"{{"Option":{}}}"#, named("a", &[&named("ph", &[&param("a", "0")])])))]);
    expect(
        &returning(&named("a", &["\"Int\""]), &[("a", unused), ("ph", record("Ph", &["U"], &[]))]),
        "expanding-recursion",
        r#"$.declarations.a.fields[0].type.Option"#,
    );
    // A cycle through an enum payload: A<T> -> Ph<List<T>> -> A<U>.
    let phantom_cycle = enumeration(
        "Ph",
        &["U"],
        &format!(r#"{{"name":"Back","doc":null,"payload":{{"positional":[{}]}}}}"#, named("a", &[&param("ph", "0")])),
    );
    let a2 = record("A", &["T"], &[("p", &named("ph", &[&format!(r#"{{"List":{}}}"#, param("a", "0"))]))]);
    expect(
        &returning(&named("a", &["\"Int\""]), &[("a", a2.clone()), ("ph", phantom_cycle)]),
        "expanding-recursion",
        r#"$.declarations.a.fields[0].type"#,
    );
    let phantom = record("Ph", &["U"], &[]);
    accept(&returning(&named("a", &["\"Int\""]), &[("a", a2), ("ph", phantom)]));
    // An expanding use with no cycle is fine: Box<T> holds Wrap<List<T>>.
    let wrap = record("Wrap", &["W"], &[("w", &param("w", "0"))]);
    let boxed = record("Box", &["T"], &[("w", &named("w", &[&format!(r#"{{"List":{}}}"#, param("b", "0"))]))]);
    accept(&returning(&named("b", &["\"Int\""]), &[("b", boxed), ("w", wrap)]));
    // Found inside Function, Task and payloads too.
    let e = enumeration(
        "E",
        &["T"],
        &format!(
            r#"{{"name":"F","doc":null,"payload":{{"positional":[{{"Task":{}}}]}}}}"#,
            named("1", &[&format!(r#"{{"Set":{}}}"#, param("1", "0"))])
        ),
    );
    expect(
        &returning(&named("1", &["\"Int\""]), &[("1", e)]),
        "expanding-recursion",
        r#"$.declarations["1"].constructors[0].payload.positional[0].Task"#,
    );
}

#[test]
fn long_chains_do_not_recurse() {
    // 20,000 generic declarations, each holding the next: no recursion
    // depth grows with the number of declarations.
    let n = 20_000;
    let mut declarations = Declarations::new();
    for i in 0..n {
        let next = format!("{}", (i + 1) % n);
        declarations.insert(
            i.to_string(),
            Template {
                name: format!("D{i}"),
                identity: format!("r@1/f.flow.D{i}"),
                lexical_ordinal: 1,
                generic: vec!["T".into()],
                opaque: false,
                doc: None,
                body: Body::Record {
                    fields: vec![Field {
                        name: "next".into(),
                        ty: Term::Named {
                            declaration: next,
                            args: vec![Term::Param { owner: i.to_string(), index: 0 }],
                        },
                        doc: None,
                    }],
                },
            },
        );
    }
    let tool = ToolDecl {
        tool: "r@1/f.flow.t".into(),
        doc: None,
        generic: vec![],
        params: vec![],
        ok: Term::Named { declaration: "0".into(), args: vec![Term::Prim(Prim::Int)] },
        err: Term::Prim(Prim::Never),
    };
    let mut l = Listing { data: "0.1".into(), tools: vec![tool], declarations };
    validate_listing(&l).unwrap();
    // Make the last link expanding: the whole ring becomes invalid.
    let last = (n - 1).to_string();
    if let Some(Template { body: Body::Record { fields }, .. }) = l.declarations.get_mut(&last) {
        fields[0].ty = Term::Named {
            declaration: "0".into(),
            args: vec![Term::List(Box::new(Term::Param { owner: last.clone(), index: 0 }))],
        };
    }
    assert_eq!(
        refusal(validate_listing(&l)),
        ("expanding-recursion", format!(r#"$.declarations["{last}"].fields[0].type"#))
    );
}
