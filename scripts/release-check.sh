#!/bin/sh
# release-check.sh: GoReleaser's own check of .goreleaser.yaml, with the
# pinned GoReleaser ($GORELEASER, go run from source).
#
#	release-check.sh run         check, and record what passed
#	release-check.sh if-changed  check unless what passed is recorded
#
# Built from source, GoReleaser is 1,788 packages: most of make check's
# package step on a fresh machine, every time, for a file that seldom
# changes. So a check that passes records the file's SHA-256 and the
# GoReleaser it passed with in scripts/release-check.sum, committed beside
# it, and make check (if-changed) runs GoReleaser only when the file or the
# pinned version is not the recorded pair. A change to .goreleaser.yaml is
# therefore checked by GoReleaser in CI as before; commit the new record
# that the passing check writes (make release-check), and the runs after it
# skip the build again.
set -eu
cd "$(dirname "$0")/.."

GO=${GO:-go}
GORELEASER=${GORELEASER:?release-check.sh needs GORELEASER, the module to go run (the Makefile sets it)}
record=scripts/release-check.sum
config=.goreleaser.yaml
current="$(sha256sum "$config" | cut -d' ' -f1)  $config  $GORELEASER"

case ${1:-} in
run) ;;
if-changed)
	if [ -f "$record" ] && [ "$(cat "$record")" = "$current" ]; then
		echo "release-check: $config passed $GORELEASER's check as it is now ($record); not built and run again (make release-check runs it)"
		exit 0
	fi
	echo "release-check: $config or the pinned GoReleaser is not the pair $record holds; running GoReleaser's check" ;;
*)
	echo "usage: release-check.sh run|if-changed" >&2
	exit 2 ;;
esac

"$GO" run "$GORELEASER" check
if [ "$(cat "$record" 2>/dev/null)" != "$current" ]; then
	echo "$current" >"$record"
	echo "release-check: recorded in $record; commit it, and make check skips this check until $config changes"
fi
