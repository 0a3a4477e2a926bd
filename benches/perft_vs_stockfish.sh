#!/bin/bash
# perft_vs_stockfish.sh [CAVALIER] [RUNS]: whole-process wall time of
# `cavalier perft 6` (start position) and `cavalier perft 5 Kiwipete` against
# Stockfish's `go perft` (/usr/games/stockfish, Debian's package `stockfish`;
# STOCKFISH=path for another), RUNS interleaved runs each (default 5); prints
# every time in ms and the minimum of each, with the ratio Stockfish /
# cavalier (above 1: cavalier faster), first of whole-process times, then
# with each engine's start-up subtracted (the minimum time of the same
# command at depth 1: Stockfish loads its network at start). Needs bc.
case ${1:-} in -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
B=${1:-$(dirname "$0")/../target/release/cavalier}; N=${2:-5}
SF=${STOCKFISH:-/usr/games/stockfish}
[ -x "$B" ] || { echo "perft_vs_stockfish.sh: $B is not executable (cargo build --release)" >&2; exit 2; }
[ -x "$SF" ] || { echo "perft_vs_stockfish.sh: no $SF (apt-get install stockfish, or STOCKFISH=path)" >&2; exit 2; }
K="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
t() { local s=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - s)/1000000 )); }
a=(); b=(); c=(); d=(); e=(); f=()
for i in $(seq $N); do
 e+=($(t $B perft 1)); f+=($(t sh -c "printf 'position startpos\ngo perft 1\nquit\n' | $SF"))
 a+=($(t $B perft 6)); b+=($(t sh -c "printf 'position startpos\ngo perft 6\nquit\n' | $SF"))
 c+=($(t $B perft 5 "$K")); d+=($(t sh -c "printf 'position fen $K\ngo perft 5\nquit\n' | $SF"))
done
min() { printf "%s\n" "$@" | sort -n | head -1; }
echo "start6 cav ${a[*]} | sf ${b[*]} ; kiwi5 cav ${c[*]} | sf ${d[*]}"
A=$(min ${a[@]}); Bm=$(min ${b[@]}); C=$(min ${c[@]}); D=$(min ${d[@]})
echo "min ms: start6 cav $A sf $Bm ratio $(echo "scale=3;$Bm/$A"|bc); kiwi5 cav $C sf $D ratio $(echo "scale=3;$D/$C"|bc)"
E=$(min ${e[@]}); F=$(min ${f[@]})
echo "start-up ms: cav ${e[*]} | sf ${f[*]} ; minimum cav $E sf $F"
echo "less start-up: start6 cav $((A-E)) sf $((Bm-F)) ratio $(echo "scale=3;($Bm-$F)/($A-$E)"|bc); kiwi5 cav $((C-E)) sf $((D-F)) ratio $(echo "scale=3;($D-$F)/($C-$E)"|bc)"
