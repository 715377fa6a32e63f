#!/usr/bin/env bash
# Whole-process timings of one confined command, side by side in one run:
#   bare      sh -c true
#   floor     a minimal Go program that runs sh -c true and waits (scripts/benchfloor):
#             the Go runtime's own start here, below which no Go wisp can go
#   floor2    the same through a re-executed Go helper that execs sh: the floor of
#             wisp's design (a Go wisp, a Go helper), with no work and no sandbox
#   bwrap     bubblewrap with the same confinement (read-only /, the project writable, no new privs)
#   landrun   landrun (Go, Landlock) with the same confinement, when it is installed
#   version   wisp version              (wisp's own start, nothing run)
#   unsafe    wisp run --unsafe -- true (the run path without the sandbox)
#   wisp      wisp run -- true          (Landlock through wisp's helper)
#   wisp-git  wisp run -- true in a repository (.git/hooks and .git/config bound read-only)
#   wisp-1bin wisp run -- true with no wisp-sandbox beside wisp: wisp is its own helper
# With WISP_BEFORE=/path/to/an/older/wisp, also version@before, wisp@before
# and wisp-git@before: a change's before and after in the same run.
#
# The cases are interleaved: each round runs every case BATCH times in a
# row, the order turning by one each round, and a case's figure is the
# median over the rounds, of its time per run and of its ratio to bare in
# the same round. A shared machine's drift then moves both sides of a
# ratio together, and one slow round moves no median.
#
# Then the peak RSS of wisp run -- true, of its helper (VmHWM, read by the
# command from its parent), of wisp while a command prints 1 MiB and 1 GiB,
# and the binaries' sizes; then, unless RUNNER=0, the runner's own
# confined/unconfined ratio through the served helper (BenchmarkRunTrueRatio).
# Issue 21 asks for wisp <= 2.5x bare, version <= 2x, the runner <= 1.5x.
# Usage: scripts/bench-run.sh [ROUNDS]   (needs bin/wisp: make build)
set -euo pipefail
rounds=${1:-25}
batch=${BATCH:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
wisp=${WISP:-$root/bin/wisp}
before=${WISP_BEFORE:-}
[ -x "$wisp" ] || { echo "bench-run: build wisp first (make build)" >&2; exit 1; }
work=$(mktemp -d)
repo=$(mktemp -d)
git -C "$repo" init -q
CGO_ENABLED=0 go build -o "$work/.floor" "$root/scripts/benchfloor"
# wisp's home where a person's is, outside every writable root (/tmp is one):
# under /tmp it would need a mount namespace to stay unwritable.
home=$(mktemp -d "$HOME/.wisp-bench.XXXXXX")
# wisp alone, outside the roots too, for the helper that is wisp itself.
alone=$(mktemp -d "$HOME/.wisp-bench-alone.XXXXXX")
cp "$wisp" "$alone/wisp"
# The binaries measured are copies, as an install makes them: on this
# kernel a binary the linker has just written starts 10-12% slower than a
# copy of it (its page cache is laid out otherwise), which would tilt a
# comparison with an older build copied from elsewhere.
installed=$(mktemp -d "$HOME/.wisp-bench-bin.XXXXXX")
install_copy() { # the folder of a wisp, a name: prints the copy's wisp
	mkdir -p "$installed/$2"
	for f in wisp wisp-sandbox wisp-agent; do
		[ -e "$1/$f" ] && cp -p "$1/$f" "$installed/$2/$f"
	done
	echo "$installed/$2/wisp"
}
trap 'rm -rf "$work" "$repo" "$home" "$alone" "$installed"' EXIT
wisp=$(install_copy "$(dirname "$wisp")" now)
[ -n "$before" ] && before=$(install_copy "$(dirname "$before")" before)
export WISP_HOME=$home
cd "$work"

names=()
dirs=()
cmds=()
add() { # name, folder, command line (a simple command, run by eval there)
	names+=("$1")
	dirs+=("$2")
	cmds+=("$3")
}
q() { printf '%q' "$1"; }
add bare "$work" "sh -c true"
add floor "$work" "$(q "$work/.floor") true"
add floor2 "$work" "$(q "$work/.floor") -reexec true"
if command -v bwrap >/dev/null; then
	add bwrap "$work" "bwrap --ro-bind / / --dev /dev --proc /proc --bind $(q "$work") $(q "$work") --chdir $(q "$work") -- sh -c true"
fi
if command -v landrun >/dev/null; then
	add landrun "$work" "landrun --rox / --rw /dev --rw $(q "$work") --unrestricted-network -- sh -c true"
fi
add version "$work" "$(q "$wisp") version"
add unsafe "$work" "$(q "$wisp") run --unsafe -- true"
add wisp "$work" "$(q "$wisp") run -- true"
add wisp-git "$repo" "$(q "$wisp") run -- true"
[ -x "$(dirname "$wisp")/wisp-sandbox" ] && add wisp-1bin "$work" "$(q "$alone/wisp") run -- true"
if [ -n "$before" ]; then
	add version@before "$work" "$(q "$before") version"
	add wisp@before "$work" "$(q "$before") run -- true"
	add wisp-git@before "$repo" "$(q "$before") run -- true"
fi

# Each case has a home of its own: the namespace probe's answer is kept
# there for the helper that gave it, and wisps with different helpers
# sharing one would each probe again after the other.
for name in "${names[@]}"; do mkdir -m 0700 "$home/$name"; done

# time_batch DIR CMD NAME: µs per run of CMD in DIR, over BATCH runs. One
# subshell a batch, and each run a fork and exec as a shell runs it.
time_batch() {
	local start end
	start=$(date +%s%N)
	(cd "$1" && export WISP_HOME="$home/$3" && eval "for ((i = 0; i < batch; i++)); do $2 >/dev/null 2>&1; done")
	end=$(date +%s%N)
	echo $(((end - start) / batch / 1000))
}

n=${#names[@]}
for ((c = 0; c < n; c++)); do # each once, untimed: caches warm, failures said
	(cd "${dirs[c]}" && export WISP_HOME="$home/${names[c]}" && eval "${cmds[c]}") >/dev/null 2>&1 || echo "bench-run: ${names[c]} failed: ${cmds[c]}" >&2
done
results=$(
	for ((r = 0; r < rounds; r++)); do
		for ((k = 0; k < n; k++)); do
			c=$(((k + r) % n))
			echo "$r ${names[c]} $(time_batch "${dirs[c]}" "${cmds[c]}" "${names[c]}")"
		done
	done
)

echo "rounds: $rounds, $batch runs of each case a round, interleaved; medians over the rounds"
echo "case          µs/run   ratio to bare (same round)   to floor2"
awk '
	{ t[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } ; if ($1 + 1 > R) R = $1 + 1 }
	function median(a, m,   i, j, x) {
		for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		for (i = 1; i <= k; i++) {
			name = order[i]; split("", us); split("", rb); split("", rf)
			for (r = 0; r < R; r++) { us[r + 1] = t[r, name]; rb[r + 1] = t[r, name] / t[r, "bare"]; rf[r + 1] = t[r, name] / t[r, "floor2"] }
			printf "%-14s %7d   %6.2fx                      %5.2fx\n", name, median(us, R), median(rb, R), median(rf, R)
		}
	}' <<<"$results"

if [ -x /usr/bin/time ]; then
	echo "peak RSS (GNU time: the largest process of the tree, which is wisp):"
	/usr/bin/time -f "  wisp run -- true: %M KiB" "$wisp" run -- true >/dev/null
	for size in 1M 1G; do
		/usr/bin/time -f "  wisp run -- head -c $size /dev/zero: %M KiB" "$wisp" run -- "head -c $size /dev/zero" >/dev/null
	done
fi
# The shell's parent is the helper, which stays to end what the command
# leaves running; in its PID namespace it is pid 1, with its own /proc.
echo "peak RSS of the sandbox helper: $("$wisp" run -- 'grep VmHWM /proc/$PPID/status' | awk '{print $2, $3}')"
echo "binaries:"
for b in "$wisp" "$(dirname "$wisp")/wisp-sandbox" ${before:+"$before"}; do
	[ -f "$b" ] && printf '  %-40s %6.1f MB\n' "$b" "$(($(stat -c %s "$b") / 1000))e-3"
done

if [ "${RUNNER:-1}" != 0 ]; then
	echo "through the runner (go test -bench RunTrueRatio ./internal/runner, the served helper):"
	(cd "$root" && go test -run '^$' -bench RunTrueRatio -benchtime 300x ./internal/runner) |
		awk '/confined\/unconfined/ { for (i = 1; i < NF; i++) if ($(i + 1) == "confined/unconfined") print "  confined/unconfined " $i }'
fi
