//! Hostile input through the protocol (issue 8, item 4): every case of
//! `flow_testkit::hostile` as a call's args into a Tool process (the server
//! core: NotRun) and as a reply to the host client (BadReply), each refused
//! with its rule, and the reading process's peak memory within the case's
//! bound. Each case runs in processes of its own (`flow-hostile`), so a peak
//! is that case's alone. Nothing here is timed.

use flow_core::json::{parse_str, Json};
use flow_core::Limits;
use flow_testkit::hostile::{memory_bound, CASES};

fn run(side: &str, case: &str) -> Json {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_flow-hostile"))
        .args([side, case])
        .output()
        .expect("flow-hostile runs");
    assert!(out.status.success(), "flow-hostile {side} {case}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    parse_str(text.trim(), &Limits::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn field<'a>(report: &'a Json, name: &str) -> &'a Json {
    report.as_object().and_then(|o| o.get(name)).unwrap_or_else(|| panic!("no {name} in {}", report.to_canonical()))
}

fn bytes(report: &Json, name: &str) -> u64 {
    field(report, name).to_canonical().parse().expect("a byte count")
}

fn check(side: &str, expected_outcome: &str) {
    let mut failures = Vec::new();
    for case in &CASES {
        let report = run(side, case.name);
        let outcome = field(&report, "outcome").as_str().unwrap_or_default().to_owned();
        let reason = field(&report, "reason").as_str().unwrap_or_default().to_owned();
        let rule = format!("[{}]", case.rule);
        if outcome != expected_outcome || !reason.contains(&rule) {
            failures.push(format!("{}: {outcome} {reason:.200}, expected {expected_outcome} with {rule}", case.name));
        }
        let (size, cost) = (bytes(&report, "size"), bytes(&report, "peak").saturating_sub(bytes(&report, "baseline")));
        let bound = memory_bound(case, size);
        eprintln!(
            "{side} {}: {size} bytes, peak {cost} bytes over the resident set before it (bound {bound})",
            case.name
        );
        if cost > bound {
            failures.push(format!(
                "{}: reading {size} bytes cost {cost} bytes of peak memory, over the bound {bound}",
                case.name
            ));
        }
    }
    assert!(failures.is_empty(), "{side}:\n{}", failures.join("\n"));
}

#[test]
fn hostile_args_are_not_run_by_the_server_core_in_bounded_memory() {
    check("server", "NotRun");
}

#[test]
fn hostile_replies_are_bad_replies_to_the_host_client_in_bounded_memory() {
    check("host", "BadReply");
}
