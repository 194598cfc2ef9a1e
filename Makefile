# The two entry points of the README: `make train` and `make test`. Each installs what is
# missing (libtorch via scripts/setup-libtorch), builds in release mode and runs.
#
# LIBTORCH_MODE=--cpu make test   installs the 0.5 GB CPU-only libtorch instead of full PyTorch.
# A LIBTORCH set in the environment is used as is and nothing is installed.

CARGO ?= cargo
LIBTORCH_MODE ?=

.PHONY: train test lint build libtorch chromium slurm python-test clean-libtorch

libtorch:
ifeq ($(origin LIBTORCH), environment)
	@echo "using LIBTORCH=$(LIBTORCH)"
else
	@scripts/setup-libtorch $(LIBTORCH_MODE)
endif

build: libtorch
	$(CARGO) build --release --locked

# The default training run: Mini Hexchess, 7 to 14 minutes on 2 CPU cores, ending with an
# evaluation table. The run directory is runs/mini-hexchess-<unix seconds>.
CONFIG ?= configs/mini-hexchess.toml
train: build
	./target/release/vzero train --config $(CONFIG)

# The browser tests open pages in Debian's headless chromium: the replay page (tests/viz.rs)
# directly, the `vzero serve` page (tests/serve_browser.rs) through chromedriver (package
# chromium-driver); without them those tests print SKIPPED. Installing needs root and the package
# archive; failing is not fatal.
chromium:
	@(command -v chromium && command -v chromedriver) >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) || echo "make: could not install chromium and chromium-driver; the browser tests will be skipped"

# The Slurm test (tests/slurm.rs) runs deploy/slurm's scripts on a one-node cluster of Debian's
# Slurm and munge daemons, started and ended by the test itself; without them it prints SKIPPED.
# Installing needs root and the package archive; failing is not fatal.
SLURM_PROGRAMS = munged slurmctld slurmd sbatch
slurm:
	@missing=; for p in $(SLURM_PROGRAMS); do command -v $$p >/dev/null 2>&1 || missing=$$p; done; \
	[ -z "$$missing" ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null) || echo "make: could not install Slurm; the Slurm test will be skipped"

# The export test, and the Python module's TorchScript test, check models in Python with the
# venv's PyTorch; without it (the CPU-only install or your own LIBTORCH) they are skipped, and say so.
ifneq ($(or $(filter --cpu,$(LIBTORCH_MODE)),$(filter environment,$(origin LIBTORCH))),)
export VZERO_SKIP_PYTHON = 1
endif

# Lint gates, run by `make test` before the tests: formatting (rustfmt.toml) and clippy with
# every warning an error, over all targets (tests, benches and examples included).
lint: libtorch
	$(CARGO) fmt --all --check
	$(CARGO) fmt --manifest-path python/Cargo.toml --check
	$(CARGO) clippy --workspace --all-targets --release --locked -- -D warnings

# The Python module (python/, a cargo workspace of its own): the test requirements in .venv,
# the module built fresh into it, its clippy gate, then its pytest suite, which checks it against
# the vzero binary built here. Without PyTorch in .venv (VZERO_SKIP_PYTHON) the one test that
# loads an exported network is skipped and says so.
python-test: build
	scripts/setup-python
	$(CARGO) clippy --manifest-path python/Cargo.toml --release --locked -- -D warnings
	.venv/bin/python -m pytest python/tests

test: lint chromium slurm
	$(CARGO) test --workspace --release --locked
	$(MAKE) --no-print-directory python-test

clean-libtorch:
	rm -rf .venv
