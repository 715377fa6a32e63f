#!/bin/sh
# release-files.sh OUT [WISP]: the files a release packs that are made, not
# kept: the shell completions that cobra generates, from WISP (a wisp for
# this machine; built into OUT when not given), and wisp-bar's autostart
# entry for a wisp-bar in /usr/bin (the .deb's). GoReleaser's before hook
# and deb-check.sh run it.
set -eu
out=$1 wisp=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/completions"
if [ -z "$wisp" ]; then
	wisp=$out/wisp
	(cd "$here" && CGO_ENABLED=0 ${GO:-go} build -o "$wisp" ./cmd/wisp-agent) # wisp-agent: every command, the lean ones too
fi
"$wisp" completion bash >"$out/completions/wisp.bash"
"$wisp" completion zsh >"$out/completions/_wisp"
"$wisp" completion fish >"$out/completions/wisp.fish"
sed 's|@BINDIR@|/usr/bin|g' "$here/packaging/linux/wisp-bar.desktop" >"$out/wisp-bar.desktop"
