#!/usr/bin/env bash
# ci-exec.sh: go test's -exec wrapper in CI (.ci/run sets TEST_EXEC to it).
# The go command puts each test binary in a work directory of mode 0700
# under GOTMPDIR; tests that run a process as the unprivileged test user
# (WISP_TEST_USER_UID) re-execute that binary, so those directories must be
# searchable by others. Only directories under GOTMPDIR are touched, and only
# the search bit is added: nothing becomes listable or writable.
set -euo pipefail

binary=$1
root=${GOTMPDIR:?ci-exec.sh needs GOTMPDIR, the directory go builds test binaries in}
dir=$(dirname "$binary")
while [[ "$dir" == "$root"/* ]]; do
	chmod o+x "$dir"
	dir=$(dirname "$dir")
done
exec "$@"
