//! flow-gen's cost as the listing grows: each shape at two sizes in one run,
//! each language's time (validation, fingerprints and generation, in memory)
//! and its growth, which is 2.0 for a generator that scales linearly when
//! the size doubles.
//!
//! Shapes: `wide`, N Tools over 5N records (each Tool takes five, each record
//! holds the one before it); `chain`, N records each holding the next, one
//! Tool taking the first.
//!
//! Times are this process's CPU seconds (user and system, from
//! `/proc/self/stat`), not wall time: on a loaded machine wall time measures
//! the neighbours. `cargo bench -p flow-benches --bench generators`
//! (release). Not part of `make test`.

use std::collections::BTreeMap;
use std::path::Path;

use flow_core::types::parse::DATA_VERSION;
use flow_core::types::*;
use flow_gen::generate::{python::Python, rust::Rust, typescript::TypeScript, GenInput, Language};

const FILE: &str = "github.com/example/scale@0.1.0/s.flow";

fn record(id: usize, fields: Vec<Field>) -> Template {
    Template {
        name: format!("R{id}"),
        identity: format!("{FILE}.R{id}"),
        lexical_ordinal: id as u64,
        generic: vec![],
        opaque: false,
        doc: Some(format!("Record {id}.")),
        body: Body::Record { fields },
    }
}

fn field(name: &str, ty: Term) -> Field {
    Field { name: name.into(), ty, doc: None }
}

fn named(id: usize) -> Term {
    Term::Named { declaration: id.to_string(), args: vec![] }
}

fn tool(name: String, params: Vec<Param>) -> ToolDecl {
    ToolDecl {
        tool: format!("{FILE}.{name}"),
        doc: None,
        generic: vec![],
        params,
        ok: Term::Prim(Prim::Text),
        err: Term::Prim(Prim::Never),
    }
}

fn wide(tools: usize) -> Listing {
    let mut declarations = BTreeMap::new();
    for id in 1..=5 * tools {
        let mut fields = vec![field("count", Term::Prim(Prim::Int)), field("label", Term::Prim(Prim::Text))];
        if id % 5 != 1 {
            fields.push(field("previous", Term::Option(Box::new(named(id - 1)))));
        }
        declarations.insert(id.to_string(), record(id, fields));
    }
    let tools = (0..tools)
        .map(|t| {
            tool(format!("tool_{t}"), (1..=5).map(|k| Param { name: format!("p{k}"), ty: named(5 * t + k) }).collect())
        })
        .collect();
    Listing { data: DATA_VERSION.into(), tools, declarations }
}

fn chain(records: usize) -> Listing {
    let mut declarations = BTreeMap::new();
    for id in 1..=records {
        let next = if id < records { named(id + 1) } else { Term::Prim(Prim::Int) };
        declarations.insert(id.to_string(), record(id, vec![field("next", next)]));
    }
    let tools = vec![tool("walk".into(), vec![Param { name: "head".into(), ty: named(1) }])];
    Listing { data: DATA_VERSION.into(), tools, declarations }
}

/// This process's CPU time so far, in seconds (Linux; clock ticks of 10 ms).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    // Fields after the command's closing parenthesis; utime and stime are
    // the 14th and 15th fields of the line.
    let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    ticks as f64 / 100.0
}

/// Seconds to validate `listing` and prepare what every language embeds
/// (fingerprints, describe entries, TypeSpecs), and then to generate it in
/// `language`: the best of three runs of each.
fn seconds(listing: &Listing, language: &dyn Language, out: &Path) -> (f64, f64) {
    let (mut prepare, mut generate) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let started = cpu_seconds();
        validate_listing(listing).expect("a valid listing");
        let input = GenInput::prepare(listing).expect("prepared");
        let prepared = cpu_seconds();
        let output = language.generate(&input, out).expect("generated");
        assert!(!output.files.is_empty());
        drop((output, input));
        prepare = prepare.min(prepared - started);
        generate = generate.min(cpu_seconds() - prepared);
    }
    (prepare, generate)
}

/// A shape's name, how to make it at a size, and its two sizes.
type Shape = (&'static str, fn(usize) -> Listing, [usize; 2]);

fn main() {
    let languages: [(&str, Box<dyn Language>, &str); 3] = [
        ("python", Box::new(Python), "scale_tools"),
        ("typescript", Box::new(TypeScript), "scale-tools"),
        ("rust", Box::new(Rust { runtime_path: None }), "scale-tools"),
    ];
    let shapes: [Shape; 2] = [("wide", wide, [1000, 2000]), ("chain", chain, [2000, 4000])];
    println!("| shape | size | language | prepare CPU s | generate CPU s | prepare at 2x | generate at 2x | growth (total) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (shape, make, [small, large]) in shapes {
        let (a, b) = (make(small), make(large));
        for (name, language, out) in &languages {
            let (pa, ga) = seconds(&a, language.as_ref(), Path::new(out));
            let (pb, gb) = seconds(&b, language.as_ref(), Path::new(out));
            let growth = (pb + gb) / (pa + ga);
            println!("| {shape} | {small} | {name} | {pa:.3} | {ga:.3} | {pb:.3} | {gb:.3} | {growth:.2}x |");
        }
    }
}
