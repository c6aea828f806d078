// Doc comments hold the Flow declarations' docs as written, Markdown and all,
// which need not be what clippy's doc lints ask of Rust docs.
#![allow(
    unknown_lints,
    clippy::doc_lazy_continuation,
    clippy::doc_nested_refdefs,
    clippy::doc_overindented_list_items,
    clippy::doc_suspicious_footnotes,
    clippy::needless_doctest_main,
    clippy::tabs_in_doc_comments,
    clippy::test_attr_in_doctest,
    clippy::too_long_first_doc_paragraph
)]
