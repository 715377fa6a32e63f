#!/usr/bin/env bash
# vet-darwin.sh: `go vet` as the code builds for macOS, with CGO_ENABLED=0
# and =1, on a machine with no Mac and no darwin C toolchain. Packages whose
# darwin build runs cgo (a file that imports "C" in the package or in a
# dependency outside the standard library) are left out: vet would have to
# compile their C. internal/darwincheck type-checks those instead.
set -euo pipefail

GO=${GO:-go}
export GOOS=darwin GOARCH=${GOARCH_DARWIN:-arm64}
patterns=("${@:-./...}")

# Packages whose darwin build with cgo on involves no cgo file outside std.
cgo_packages=$(CGO_ENABLED=1 "$GO" list -deps -f '{{if and .CgoFiles (not .Standard)}}{{.ImportPath}}{{end}}' "${patterns[@]}")
vettable=$(CGO_ENABLED=1 "$GO" list -f '{{.ImportPath}} {{join .Deps " "}}' "${patterns[@]}" |
	awk -v cgo="$cgo_packages" '
		BEGIN { n = split(cgo, list, "\n"); for (i = 1; i <= n; i++) uses[list[i]] = 1 }
		{ ok = !uses[$1]; for (i = 2; i <= NF; i++) if (uses[$i]) ok = 0; if (ok) print $1 }')
left=$(comm -13 <(sort <<<"$vettable") <(CGO_ENABLED=1 "$GO" list "${patterns[@]}" | sort))
[[ -z "$left" ]] || echo "vet-darwin: left to darwincheck (cgo): $(tr '\n' ' ' <<<"$left")"
[[ -n "$vettable" ]] || exit 0

for cgo in 0 1; do
	echo "go vet (darwin/$GOARCH, CGO_ENABLED=$cgo)"
	# shellcheck disable=SC2086 # one package path a word
	CGO_ENABLED=$cgo "$GO" vet $vettable
done
