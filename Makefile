# Builds cavalier the way OpenBench and other testers build engines:
#   make                 ./cavalier, portable release build
#   make EXE=path        the binary written to `path`
#   make native EXE=...  built for this CPU (popcount and the rest)
# The engine itself is built by cargo; this file only names the result.

EXE ?= cavalier

.PHONY: all native clean

all:
	cargo build --release
	cp target/release/cavalier $(EXE)

native:
	RUSTFLAGS="-C target-cpu=native" cargo build --release --target-dir target/native
	cp target/native/release/cavalier $(EXE)

clean:
	cargo clean
