#!/usr/bin/env bash
# vet-darwin.sh: `GOOS=darwin go vet` of the given packages (./... by
# default), with cgo off and on, on a machine with no Mac and no darwin C
# toolchain, as make lint does it: internal/darwincheck type-checks the
# packages and their dependencies from source, runs go vet's analyzers over
# those without cgo and type-checks the cgo ones with C faked. go vet
# itself would compile every dependency for darwin, twice.
set -euo pipefail

exec "${GO:-go}" run "$(cd "$(dirname "$0")/.." && pwd)/internal/darwincheck" -goarch "${GOARCH_DARWIN:-arm64}" -vet "${GOARCH_DARWIN:-arm64}" "${@:-./...}"
