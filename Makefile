# The two commands of the README: `make demo` and `make test`. Each sets up what
# it needs from the project's own files, so both work on a fresh machine.

CARGO ?= cargo

.PHONY: demo test lint bench

demo:
	$(CARGO) build --locked --release -p flow-gen -p flow-host
	./scripts/demo

test: lint
	$(CARGO) test --workspace --locked

lint:
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

bench:
	$(CARGO) bench --locked -p flow-benches
