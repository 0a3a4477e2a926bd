#!/usr/bin/env bash
# fastchess.sh - builds fastchess, the match runner the game scripts
# (sprt.py, spsa.py, ladder.py) drive, into target/fastchess/ and prints the
# binary's path.
#
# usage: benches/fastchess.sh [-f] [SRC]
#   SRC  a fastchess source folder (a checkout or an unpacked release): it is
#        copied to target/fastchess/src and built there, the folder itself is
#        left as it was. Without SRC, https://github.com/Disservin/fastchess
#        (or FASTCHESS_URL) is cloned there and the pinned commit checked out.
#   -f   build again although target/fastchess/fastchess exists
#
# The pinned commit is the one the scripts were verified with: tag
# v1.8.2-alpha. FASTCHESS_REV=<tag or commit> picks another for a clone.
# Needs git (for a clone), make and a C++17 compiler; the build runs
# `make -j` with one job per core (JOBS=N to change) and takes a minute or
# two. The game scripts find target/fastchess/fastchess by themselves.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
pin=f618e34540f94f4719ad3817950618dabe441318 # v1.8.2-alpha
rev=${FASTCHESS_REV:-$pin}
url=${FASTCHESS_URL:-https://github.com/Disservin/fastchess}
out=$root/target/fastchess
exe=$out/fastchess
# git must not take cavalier's repository for fastchess's when the source
# is not a checkout of its own.
export GIT_CEILING_DIRECTORIES=$out
force=0
while getopts "fh" opt; do
  case $opt in
    f) force=1 ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
src=${1:-}
if [ -z "$src" ] && [ $force = 0 ] && [ -x "$exe" ]; then
  echo "$exe"
  exit 0
fi
mkdir -p "$out"
if [ -n "$src" ]; then
  [ -f "$src/Makefile" ] && [ -d "$src/app" ] || {
    echo "fastchess.sh: $src does not look like fastchess's source (no Makefile and app/)" >&2
    exit 2
  }
  rm -rf "$out/src"
  cp -R "$src" "$out/src"
  got=$(git -C "$out/src" rev-parse HEAD 2> /dev/null || echo "unknown (not a git checkout)")
  [ "$got" = "$pin" ] || echo "fastchess.sh: building $got; the scripts were verified with $pin (v1.8.2-alpha)" >&2
else
  if [ ! -d "$out/src/.git" ]; then
    rm -rf "$out/src"
    git clone "$url" "$out/src" >&2
  fi
  git -C "$out/src" -c advice.detachedHead=false checkout -q "$rev" 2> /dev/null || {
    git -C "$out/src" fetch -q origin >&2
    git -C "$out/src" -c advice.detachedHead=false checkout -q "$rev" >&2
  }
fi
jobs=${JOBS:-$(nproc 2> /dev/null || sysctl -n hw.ncpu 2> /dev/null || echo 2)}
make -C "$out/src" -j"$jobs" >&2
cp "$out/src/fastchess" "$exe"
"$exe" --version >&2 || true
echo "$exe"
