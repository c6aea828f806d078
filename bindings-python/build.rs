//! Links test and clippy builds against the interpreter PYO3_PYTHON names
//! (the project's .venv), so `cargo test` loads that libpython and not the
//! system's.

fn main() {
    pyo3_build_config::add_libpython_rpath_link_args();
}
