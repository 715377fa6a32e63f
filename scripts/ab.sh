#!/usr/bin/env bash
# Interleaved A/B timing of two whole commands: A, B, A, B, … N times each,
# then the median wall time of each and B/A. Interleaving keeps a shared
# machine's drift out of the ratio, as scripts/bench-run.sh does for its
# fixed cases; this is for a change's before and after of one command.
#   scripts/ab.sh N -- COMMAND A... :: COMMAND B...
# e.g. scripts/ab.sh 300 -- old/wisp version :: new/wisp version
# (copy both builds first: a binary the linker has just written starts
# slower than a copy of it; see bench-run.sh).
set -euo pipefail
usage() { echo "usage: scripts/ab.sh N -- COMMAND A... :: COMMAND B..." >&2; exit 2; }
[ $# -ge 4 ] && [ "$2" = -- ] || usage
n=$1
shift 2
a=()
while [ $# -gt 0 ] && [ "$1" != "::" ]; do a+=("$1"); shift; done
[ $# -gt 1 ] && [ ${#a[@]} -gt 0 ] || usage
shift
b=("$@")
ta=() tb=()
for _ in $(seq "$n"); do
	s=${EPOCHREALTIME/./}; "${a[@]}" >/dev/null 2>&1 || true; e=${EPOCHREALTIME/./}; ta+=($((e - s)))
	s=${EPOCHREALTIME/./}; "${b[@]}" >/dev/null 2>&1 || true; e=${EPOCHREALTIME/./}; tb+=($((e - s)))
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int(NR / 2) + 1]}'; }
ma=$(median "${ta[@]}")
mb=$(median "${tb[@]}")
awk -v a="$ma" -v b="$mb" 'BEGIN {printf "A %d µs  B %d µs  B/A %.3f\n", a, b, b / a}'
