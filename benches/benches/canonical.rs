//! Canonicalization of the 20,000-record corpus against serde_json
//! (arbitrary_precision) parse + serialize of the same text, in one run.
//! serde_json keeps the digits but writes `1.50` as `1.50` and `1e3` as `1e3`:
//! it does less than canonical text needs, so it is the bar to get near.
//!
//! Run: `cargo bench -p flow-benches --bench canonical`

use flow_benches::corpus::corpus;
use flow_benches::report::{record, scaled};
use flow_benches::timing::{median, ms};
use flow_core::decode::decode_with;
use flow_core::json::read::{read, Keys, Order, Sink};
use flow_core::number::ScannedNumber;
use flow_core::plan::Plan;
use flow_core::types::parse::listing_from_text;
use flow_core::{json, Limits};

/// A sink that builds nothing: what reading under every rule costs alone.
struct Nothing;

impl Sink for Nothing {
    type Value = ();
    type Array = ();
    type Object = ();
    fn null(&mut self) {}
    fn boolean(&mut self, _: bool) {}
    fn number(&mut self, _: &ScannedNumber<'_>) {}
    fn string(&mut self, _: &str) {}
    fn begin_array(&mut self) {}
    fn item(&mut self, _: &mut (), _: ()) {}
    fn end_array(&mut self, _: ()) {}
    fn begin_object(&mut self) {}
    fn key(&mut self, _: &mut (), _: &str) {}
    fn member(&mut self, _: &mut (), _: ()) {}
    fn end_object(&mut self, _: (), _: Keys<'_>, _: Order<'_>) {}
}

fn main() {
    let text = corpus(20_000);
    let bytes = text.as_bytes();
    let limits = Limits::default();
    let (warmup, runs) = (scaled(3, 1), scaled(15, 3));
    let ours = median(warmup, runs, || json::canonicalize(bytes, &limits).unwrap());
    let tree = median(warmup, runs, || json::parse(bytes, &limits).unwrap());
    let alone = median(warmup, runs, || read(bytes, &limits, &mut Nothing).unwrap());
    let peer = median(warmup, runs, || {
        let value: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        serde_json::to_string(&value).unwrap()
    });
    // Typed decoding at List<Reading> (benches/corpus.tools.json), the plan
    // compiled once as a Tool process does.
    let listing = listing_from_text(flow_benches::corpus::LISTING.as_bytes(), &limits).unwrap();
    let (plan, root) = Plan::compile(&listing.declarations, &listing.tools[0].ok).unwrap();
    let typed = median(warmup, runs, || decode_with(bytes, &plan, root, &limits).unwrap());
    let value = decode_with(bytes, &plan, root, &limits).unwrap();
    let encode = median(warmup, runs, || value.to_canonical());
    let mb = bytes.len() as f64 / 1e6;
    println!("corpus: 20,000 records, {mb:.1} MB");
    println!("flow-core canonicalize:            {:8.2} ms  ({:.0} MB/s)", ms(ours), mb / ours.as_secs_f64());
    println!("serde_json parse+serialize:        {:8.2} ms  ({:.0} MB/s)", ms(peer), mb / peer.as_secs_f64());
    println!("ratio flow-core / serde_json:      {:8.2}x (goal <= 0.6x)", ours.as_secs_f64() / peer.as_secs_f64());
    println!("flow-core parse (the Json tree):   {:8.2} ms  ({:.0} MB/s)", ms(tree), mb / tree.as_secs_f64());
    println!("flow-core read, building nothing:  {:8.2} ms  ({:.0} MB/s)", ms(alone), mb / alone.as_secs_f64());
    println!("flow-core typed decode:            {:8.2} ms  ({:.0} MB/s)", ms(typed), mb / typed.as_secs_f64());
    println!("flow-core encode typed value:      {:8.2} ms  ({:.0} MB/s)", ms(encode), mb / encode.as_secs_f64());
    let size = [("bytes", bytes.len() as f64)];
    record("rust.canonical", "flow.canonicalize", "flow-core canonicalize", "ms", ms(ours), &size);
    record("rust.canonical", "serde_json", "serde_json parse + serialize", "ms", ms(peer), &size);
    record("rust.canonical", "flow.decode", "flow-core typed decode", "ms", ms(typed), &size);
    record("rust.canonical", "flow.encode", "flow-core canonical text of the typed value", "ms", ms(encode), &size);
}
