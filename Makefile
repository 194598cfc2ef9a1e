# The two entry points of the README: `make train` and `make test`. Each installs what is
# missing (libtorch via scripts/setup-libtorch), builds in release mode and runs.
#
# LIBTORCH_MODE=--cpu make test   installs the 0.5 GB CPU-only libtorch instead of full PyTorch.
# A LIBTORCH set in the environment is used as is and nothing is installed.

CARGO ?= cargo
LIBTORCH_MODE ?=

.PHONY: train test build libtorch clean-libtorch

libtorch:
ifeq ($(origin LIBTORCH), environment)
	@echo "using LIBTORCH=$(LIBTORCH)"
else
	@scripts/setup-libtorch $(LIBTORCH_MODE)
endif

build: libtorch
	$(CARGO) build --release --locked

# Until the training loop lands, the main job is the most real thing that exists: list the
# variants and check the move generators of those implemented.
train: build
	./target/release/vzero variants
	./target/release/vzero bench perft

test: libtorch
	$(CARGO) test --workspace --release --locked

clean-libtorch:
	rm -rf .venv
