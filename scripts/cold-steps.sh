#!/usr/bin/env bash
# cold-steps.sh: how long make check's steps take cold, as on a fresh
# machine: each argument is one make invocation (split into words, so
# '-j2 lint' works), run in order with one build cache that starts empty
# and the module cache as it is (a fresh machine downloads modules first;
# that is network time, not build time). For each it prints the wall time
# and the CPU seconds (user+sys of everything it ran): on a shared machine
# the wall time moves with the others' load, the CPU seconds much less, so
# compare those, as ratios against a run measured the same way.
#
#	scripts/cold-steps.sh '-j2 --output-sync=line lint' test-build deb-check release-check
#
# Run it in a git checkout (a worktree will do): actionlint finds the
# workflows through the repository. COLD_GOCACHE names the cache to use (it is emptied first); by default a
# temporary one, removed at the end.
set -euo pipefail

cache=${COLD_GOCACHE:-$(mktemp -d /tmp/cold-gocache.XXXXXX)}
[[ -n ${COLD_GOCACHE:-} ]] || trap 'chmod -R u+w "$cache"; rm -rf "$cache"' EXIT
find "$cache" -mindepth 1 -delete
export GOCACHE=$cache
# staticcheck keeps a cache of its own beside Go's; start that empty too.
export XDG_CACHE_HOME=$cache/xdg

TIMEFORMAT='%R %U %S'
total_wall=0 total_cpu=0
for step in "$@"; do
	# shellcheck disable=SC2086 # a step is make's words
	times=$( { time make --no-print-directory $step >"$cache/step.log" 2>&1; } 2>&1 ) ||
		{ cat "$cache/step.log"; echo "cold-steps: make $step failed" >&2; exit 1; }
	read -r wall user sys <<<"$times"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.0f", u + s }')
	wall=$(awk -v w="$wall" 'BEGIN { printf "%.0f", w }')
	grep '^== make .* took' "$cache/step.log" | sed 's/^/   /' || true
	printf '%-40s wall %5d s  cpu %5d s\n' "make $step" "$wall" "$cpu"
	total_wall=$((total_wall + wall)) total_cpu=$((total_cpu + cpu))
done
printf '%-40s wall %5d s  cpu %5d s  (load now: %s)\n' "all" "$total_wall" "$total_cpu" "$(cut -d' ' -f1-3 /proc/loadavg)"
