#!/usr/bin/env bash
# Whole-process timings of one confined command, side by side in one run:
#   bare      sh -c true
#   bwrap     bubblewrap with the same confinement (read-only /, the project writable, no new privs)
#   wisp      wisp run -- true          (Landlock through wisp's helper)
#   unsafe    wisp run --unsafe -- true (the same path without the sandbox)
# Prints the mean per run and each one's ratio to bare. Issue 3 asks for wisp <= 3x bare.
# Then the peak RSS of wisp while a command prints 1 MiB and 1 GiB.
# Usage: scripts/bench-run.sh [RUNS]   (needs bin/wisp: make build)
set -euo pipefail
runs=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
wisp=${WISP:-$root/bin/wisp}
[ -x "$wisp" ] || { echo "bench-run: build wisp first (make build)" >&2; exit 1; }
work=$(mktemp -d)
# wisp's home where a person's is, outside every writable root (/tmp is one):
# under /tmp it would need a mount namespace to stay unwritable.
home=$(mktemp -d "$HOME/.wisp-bench.XXXXXX")
trap 'rm -rf "$work" "$home"' EXIT
export WISP_HOME=$home
cd "$work"

time_it() { # name, command...
	local name=$1; shift
	"$@" >/dev/null 2>&1 || { printf '%-8s failed: %s\n' "$name" "$*"; return; }
	local start end
	start=$(date +%s%N)
	for ((i = 0; i < runs; i++)); do "$@" >/dev/null 2>&1; done
	end=$(date +%s%N)
	echo "$name $(((end - start) / runs / 1000))"
}

results=$(
	time_it bare sh -c true
	if command -v bwrap >/dev/null; then
		time_it bwrap bwrap --ro-bind / / --dev /dev --proc /proc --bind "$work" "$work" --chdir "$work" -- sh -c true
	fi
	time_it wisp "$wisp" run -- true
	time_it unsafe "$wisp" run --unsafe -- true
)
bare=$(awk '$1 == "bare" {print $2}' <<<"$results")
echo "runs: $runs each; mean µs per run; ratio to bare sh -c true"
awk -v bare="$bare" '{ printf "%-8s %8d µs  %5.2fx\n", $1, $2, $2 / bare }' <<<"$results"

# Peak memory of wisp itself while a command prints 1 MiB and 1 GiB: the
# output is bounded for the model and capped in the store, so it stays flat.
if [ -x /usr/bin/time ]; then
	echo "peak RSS of wisp run (GNU time):"
	for size in 1M 1G; do
		/usr/bin/time -f "  head -c $size /dev/zero: %M KiB" "$wisp" run -- "head -c $size /dev/zero" >/dev/null
	done
fi
