//! Peak heap of one decode of the 20,000-record corpus, as a multiple of the
//! input's size: flow-core's typed decode and canonicalize beside serde_json
//! (arbitrary_precision) reading the same text into its `Value`.
//!
//! The heap is counted by a global allocator that wraps the system's: every
//! byte allocated and not yet freed, and its high-water mark since the decode
//! began. Exact and free of the resident-size noise of a reused heap, it counts
//! what the decode asked for, not what the allocator kept from the system.
//!
//! Run: `cargo bench -p flow-benches --bench memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use flow_benches::corpus::corpus;
use flow_benches::report::record;
use flow_core::decode::decode_with;
use flow_core::plan::Plan;
use flow_core::types::parse::listing_from_text;
use flow_core::{json, Limits};

/// The system allocator, counting the bytes live and their high-water mark.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to the system allocator unchanged.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            grew(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` came from `alloc` or `realloc` above, with this layout.
        unsafe { System.dealloc(block, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `alloc` and `dealloc`: the contract is the system allocator's.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        moved
    }
}

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What one decode held: its high-water mark and its result, both above the
/// heap live before it began.
struct Held {
    peak: usize,
    result: usize,
}

fn held<T>(decode: impl FnOnce() -> T) -> Held {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let value = decode();
    let held = Held {
        peak: PEAK.load(Ordering::Relaxed) - before,
        result: LIVE.load(Ordering::Relaxed).saturating_sub(before),
    };
    drop(value);
    held
}

fn main() {
    let text = corpus(20_000);
    let bytes = text.as_bytes();
    let limits = Limits::default();
    let listing = listing_from_text(flow_benches::corpus::LISTING.as_bytes(), &limits).unwrap();
    let (plan, root) = Plan::compile(&listing.declarations, &listing.tools[0].ok).unwrap();
    let decoders: [(&str, &str, Held); 3] = [
        (
            "flow.decode",
            "flow-core typed decode (List<Reading>)",
            held(|| decode_with(bytes, &plan, root, &limits).unwrap()),
        ),
        ("flow.canonicalize", "flow-core canonicalize", held(|| json::canonicalize(bytes, &limits).unwrap())),
        (
            "serde_json",
            "serde_json `from_slice::<Value>` (arbitrary_precision)",
            held(|| serde_json::from_slice::<serde_json::Value>(bytes).unwrap()),
        ),
    ];
    let input = bytes.len() as f64;
    let mib = f64::from(1 << 20);
    println!("corpus: 20,000 records, {} bytes; heap counted by the global allocator", bytes.len());
    println!("| decoder | peak heap | result | peak beyond the result (goal <= 2x input) |");
    println!("|---|---|---|---|");
    for (id, label, held) in &decoders {
        let beyond = held.peak - held.result;
        println!(
            "| {label} | {:.1} MiB ({:.2}x input) | {:.1} MiB | {:.1} MiB ({:.2}x input) |",
            held.peak as f64 / mib,
            held.peak as f64 / input,
            held.result as f64 / mib,
            beyond as f64 / mib,
            beyond as f64 / input,
        );
        record(
            "rust.memory",
            id,
            label,
            "x input",
            beyond as f64 / input,
            &[("bytes", input), ("peak_bytes", held.peak as f64), ("result_bytes", held.result as f64)],
        );
    }
}
