#!/usr/bin/env bash
# wac.sh - Win At Chess (benches/wac.epd): every position searched for a
# fixed time (or a fixed number of nodes), the suite split into one part
# per core and the parts searched side by side by `cavalier epd`; prints
# the solved count and the misses' numbers.
#
# `cavalier epd` is a lab tool: it is in a binary built with
#   cargo build --release --features lab
# not in the default build. benches/epd_uci.py runs the same suite through
# UCI with any build (and any other engine).
#
# usage: benches/wac.sh [-b CAVALIER] [-t MS | -n NODES] [-p PARTS] [-o DIR]
#   -b  the binary                      (default target/release/cavalier)
#   -t  milliseconds per position       (default 1000: the issue's measure)
#   -n  nodes per position instead: the same answer under any load
#   -p  parts searched at once          (default 2, one per core)
#   -o  where each part's lines go      (default ./wac-out)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=target/release/cavalier budget=(--movetime 1000) parts=2 out=wac-out
while getopts "b:t:n:p:o:h" opt; do
  case $opt in
    b) bin=$OPTARG ;; t) budget=(--movetime "$OPTARG") ;; n) budget=(--nodes "$OPTARG") ;;
    p) parts=$OPTARG ;; o) out=$OPTARG ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "wac.sh: $bin is not executable" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/in-* "$out"/part-*.txt
grep -v '^#' "$here/wac.epd" > "$out/all.epd"
total=$(wc -l < "$out/all.epd")
split -d -l $(( (total + parts - 1) / parts )) "$out/all.epd" "$out/in-"
pids=()
for f in "$out"/in-*; do
  "$bin" epd "$f" "${budget[@]}" > "$out/part-${f##*-}.txt" 2> "$out/part-${f##*-}.err" &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
rm -f "$out"/in-*
if [ $failed = 1 ]; then
  cat "$out"/part-*.err >&2
  echo "wac.sh: $bin epd failed; a binary without the lab tools? (cargo build --release --features lab)" >&2
  exit 1
fi
solved=$(cat "$out"/part-*.txt | awk '$3 == "ok"' | wc -l)
echo "solved $solved of $total (${budget[*]} per position, $parts at once)"
echo "misses: $(cat "$out"/part-*.txt | awk '$3 == "FAIL" { sub(/^WAC\./, "", $2); printf "%s ", $2 }')"
