# Builds cavalier the way OpenBench and other testers build engines:
#   make                 ./cavalier, portable release build
#   make EXE=path        the binary written to `path`
#   make native EXE=...  built for this CPU (popcount and the rest)
#   make pgo EXE=...     portable, profile-guided: built once instrumented,
#                        trained on `bench` and `perft 5`, built again with
#                        that profile (needs rustup's llvm-tools component,
#                        added if missing); plays the same moves; its
#                        speed against the plain build differs by machine
#                        and build (docs/speed.md, "Build options")
#   FEATURES=lab         any of them with the lab tools (selfplay, net, ...);
#                        `make pgo FEATURES=lab` also trains the profile on
#                        a few self-play games, the self-play data's build
# The engine itself is built by cargo; this file only names the result.

EXE ?= cavalier

.PHONY: all native pgo clean

# llvm-profdata of the toolchain that builds (rustup's llvm-tools).
SYSROOT = $(shell rustc --print sysroot)
HOST = $(shell rustc -vV | sed -n 's/^host: //p')
PROFDATA = $(SYSROOT)/lib/rustlib/$(HOST)/bin/llvm-profdata
PGO = $(CURDIR)/target/pgo
FEATURES ?=
CARGO_FEATURES = $(if $(FEATURES),--features $(FEATURES),)

all:
	cargo build --release $(CARGO_FEATURES)
	cp target/release/cavalier $(EXE)

native:
	RUSTFLAGS="-C target-cpu=native" cargo build --release $(CARGO_FEATURES) --target-dir target/native
	cp target/native/release/cavalier $(EXE)

pgo:
	test -x $(PROFDATA) || rustup component add llvm-tools
	rm -rf $(PGO)/data
	RUSTFLAGS="-C profile-generate=$(PGO)/data" cargo build --release $(CARGO_FEATURES) --target-dir $(PGO)/gen
	$(PGO)/gen/release/cavalier bench > /dev/null
	$(PGO)/gen/release/cavalier perft 5 > /dev/null
	if $(PGO)/gen/release/cavalier selfplay --help > /dev/null 2>&1; then \
	  rm -f $(PGO)/selfplay.bin*; \
	  $(PGO)/gen/release/cavalier selfplay --nnue --packed --games 16 --seed 1 \
	    --soft-nodes 2000 --nodes 8000 --out $(PGO)/selfplay.bin 2> /dev/null; fi
	$(PROFDATA) merge -o $(PGO)/cavalier.profdata $(PGO)/data
	RUSTFLAGS="-C profile-use=$(PGO)/cavalier.profdata" cargo build --release $(CARGO_FEATURES) --target-dir $(PGO)/use
	cp $(PGO)/use/release/cavalier $(EXE)

clean:
	cargo clean
