#!/usr/bin/env bash
# scripts/tour-macos.sh: the tour a person with a Mac follows (make
# tour-macos, the end of make check-macos; docs/macos.md says what each step
# should show). It uses bin/wisp and dist/Wisp Bar.app as make built them,
# a wisp home and a project of its own, and a file in your home that only
# the approved run may write; it removes all three at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

WISP=$PWD/bin/wisp
BAR="$PWD/dist/Wisp Bar.app/Contents/MacOS/wisp-bar"
TOUR=$(mktemp -d "${TMPDIR:-/tmp}/wisp-tour.XXXXXX")
TARGET=$HOME/.wisp-tour-$$
export WISP_HOME=$TOUR/home
BAR_PID=

cleanup() {
	[[ -n $BAR_PID ]] && kill "$BAR_PID" 2>/dev/null || true
	rm -rf "$TOUR" "$TARGET"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'tour: FAILED: %s\n' "$*" >&2; exit 1; }
ask() {
	local answer
	read -r -p "$* [y/n] " answer </dev/tty
	[[ $answer == y* ]] || fail "you answered no to: $*"
}

for f in "$WISP" "$BAR"; do
	[[ -x $f ]] || fail "$f is missing: run make build app first"
done
mkdir -p "$TOUR/proj" && install -d -m 0700 "$WISP_HOME"
cd "$TOUR/proj" && git init -q

step "1. A confined write outside the project is refused, and named"
set +e
"$WISP" run -- "touch '$TARGET'" 2>"$TOUR/refused.err"
code=$?
set -e
cat "$TOUR/refused.err"
((code != 0)) || fail "the confined touch succeeded"
[[ ! -e $TARGET ]] || fail "$TARGET was written by a confined command"
grep -q "refused writing to $TARGET" "$TOUR/refused.err" || fail "the note does not name $TARGET"

step "2. The same line outside the sandbox, approved from a real banner"
"$WISP" config set approval.outOfBand true >/dev/null
"$BAR" >"$TOUR/bar.log" 2>&1 &
BAR_PID=$!
echo "Wisp Bar is running (its log: $TOUR/bar.log)."
echo "A banner 'wisp: approve OUTSIDE the sandbox' comes up for: touch '$TARGET'."
echo "Click Approve once in the BANNER (not in this terminal)."
"$WISP" run --ask --outside-sandbox -- "touch '$TARGET'" || fail "the approved run failed (exit $?)"
[[ -e $TARGET ]] || fail "the approved run did not write $TARGET"
echo "written: $TARGET"

step "3. wisp-bar's menu"
echo "Open the wisp item in the menu bar now: it shows one request, rm -r build,"
echo "with its level, folder and digest. Choose Deny there."
mkdir -p build
set +e
"$WISP" run --ask -- "rm -r build"
code=$?
set -e
((code == 4)) || fail "the denied request exited $code, want 4 (not approved)"
[[ -d build ]] || fail "build was removed although you denied it"
ask "Did the menu show the request with its digest, and did the count go back to none after Deny?"

step "The tour passed"
