# The two commands of the README: `make demo` and `make test`. Each sets up what
# it needs from the project's own files, so both work on a fresh machine.

CARGO ?= cargo
PYTHON3 ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Every Rust build links pyo3 against the venv's interpreter (toolchain.md):
# one interpreter for cargo, clippy and maturin, so nothing is built twice.
export PYO3_PYTHON := $(abspath $(VENV))/bin/python
# Pinned: the Python side's build, test and benchmark tools.
PY_TOOLS := maturin==1.16.0 pytest==9.2.0 mypy==2.4.1 ruff==0.17.5 pydantic==2.14.3 orjson==3.13.0 mcp==2.3.0

.PHONY: demo test lint bench python-env python-test python-bench

demo: python-env
	$(CARGO) build --locked --release -p flow-gen -p flow-host
	./scripts/demo

test: lint
	$(CARGO) test --workspace --locked
	$(CARGO) build --locked -p flow-gen -p flow-host
	$(MAKE) python-test

lint: python-env
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

bench: python-bench
	$(CARGO) bench --locked -p flow-benches

# The venv with the pinned tools, and flow-toolkit built from this checkout
# into it (maturin develop: an editable install that reuses target/).
python-env: $(VENV)/.tools
	$(VENV)/bin/maturin develop --locked -q -m bindings-python/Cargo.toml

$(VENV)/.tools:
	$(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check $(PY_TOOLS)
	touch $@

# pytest fails on no tests collected (exit 5) like on any failure.
python-test: python-env
	$(PY) -m mypy.stubtest flow_toolkit._native
	$(PY) -m mypy --strict bindings-python/python/flow_toolkit
	$(PY) -m ruff check bindings-python/python tests/python examples/python generated-samples/python benches/python
	cd tests/python && ../../$(PY) -m pytest -q

# Benchmarks measure against a release build; not part of `make test`.
python-bench: $(VENV)/.tools
	$(VENV)/bin/maturin develop --locked --release -q -m bindings-python/Cargo.toml
	$(PY) benches/python/decode.py
	$(PY) benches/python/encode.py
	$(PY) benches/python/calls.py
