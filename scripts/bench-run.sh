#!/usr/bin/env bash
# Whole-process timings of one confined command, side by side in one run:
#   bare      sh -c true
#   floor     a minimal Go program that runs sh -c true and waits (scripts/benchfloor):
#             the Go runtime's own start here, below which no Go wisp can go
#   floor2    the same through a re-executed Go helper that execs sh: the floor of
#             wisp's design (a Go wisp, a Go helper), with no work and no sandbox
#   bwrap     bubblewrap with the same confinement (read-only /, the project writable, no new privs)
#   version   wisp version              (wisp's own start, nothing run)
#   unsafe    wisp run --unsafe -- true (the run path without the sandbox)
#   wisp      wisp run -- true          (Landlock through wisp's helper)
#   wisp-git  wisp run -- true in a repository (.git/hooks and .git/config bound read-only)
# Prints the mean per run and each one's ratio to bare and to floor2. Issue 3
# asks for wisp <= 3x bare.
# Then the peak RSS of wisp while a command prints 1 MiB and 1 GiB.
# Usage: scripts/bench-run.sh [RUNS]   (needs bin/wisp: make build)
set -euo pipefail
runs=${1:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
wisp=${WISP:-$root/bin/wisp}
[ -x "$wisp" ] || { echo "bench-run: build wisp first (make build)" >&2; exit 1; }
work=$(mktemp -d)
repo=$(mktemp -d)
git -C "$repo" init -q
CGO_ENABLED=0 go build -o "$work/.floor" "$root/scripts/benchfloor"
# wisp's home where a person's is, outside every writable root (/tmp is one):
# under /tmp it would need a mount namespace to stay unwritable.
home=$(mktemp -d "$HOME/.wisp-bench.XXXXXX")
trap 'rm -rf "$work" "$repo" "$home"' EXIT
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
	time_it floor "$work/.floor" true
	time_it floor2 "$work/.floor" -reexec true
	if command -v bwrap >/dev/null; then
		time_it bwrap bwrap --ro-bind / / --dev /dev --proc /proc --bind "$work" "$work" --chdir "$work" -- sh -c true
	fi
	time_it version "$wisp" version
	time_it unsafe "$wisp" run --unsafe -- true
	time_it wisp "$wisp" run -- true
	(cd "$repo" && time_it wisp-git "$wisp" run -- true)
)
bare=$(awk '$1 == "bare" {print $2}' <<<"$results")
floor=$(awk '$1 == "floor2" {print $2}' <<<"$results")
echo "runs: $runs each; mean µs per run; ratio to bare sh -c true, and to floor2 (a Go program and a Go helper)"
awk -v bare="$bare" -v floor="$floor" '{ printf "%-8s %8d µs  %5.2fx bare  %5.2fx floor2\n", $1, $2, $2 / bare, $2 / floor }' <<<"$results"

# Peak memory of wisp itself while a command prints 1 MiB and 1 GiB: the
# output is bounded for the model and capped in the store, so it stays flat.
if [ -x /usr/bin/time ]; then
	echo "peak RSS of wisp run (GNU time):"
	for size in 1M 1G; do
		/usr/bin/time -f "  head -c $size /dev/zero: %M KiB" "$wisp" run -- "head -c $size /dev/zero" >/dev/null
	done
fi
