// Package testenv holds what wisp's tests share: the rule that a test
// needing a kernel feature skips where the feature is missing, except under
// WISP_REQUIRE_KERNEL=1 (set by CI), where the skip is a failure.
package testenv

import (
	"os"
	"testing"
)

// RequireKernelEnv names the variable that turns "kernel feature missing"
// skips into failures, so that a green CI means the kernel tests ran.
const RequireKernelEnv = "WISP_REQUIRE_KERNEL"

// KernelRequired reports whether missing kernel features must fail tests.
func KernelRequired() bool { return os.Getenv(RequireKernelEnv) == "1" }

// NeedKernel skips t with why when ok is false, or fails it when
// WISP_REQUIRE_KERNEL=1.
func NeedKernel(t testing.TB, ok bool, why string) {
	t.Helper()
	if ok {
		return
	}
	if KernelRequired() {
		t.Fatalf("%s, and %s=1 makes that a failure", why, RequireKernelEnv)
	}
	t.Skip(why)
}

// NeedUnprivileged reports the uid of an unprivileged user to run a
// subprocess as (WISP_TEST_USER_UID / WISP_TEST_USER_GID, created by
// .ci/run), or skips (fails under WISP_REQUIRE_KERNEL=1) when none is set.
func NeedUnprivileged(t testing.TB) (uid, gid int) {
	t.Helper()
	var u, g int
	_, err1 := sscan(os.Getenv("WISP_TEST_USER_UID"), &u)
	_, err2 := sscan(os.Getenv("WISP_TEST_USER_GID"), &g)
	NeedKernel(t, err1 == nil && err2 == nil && u != 0, "no unprivileged test user (set WISP_TEST_USER_UID and WISP_TEST_USER_GID)")
	return u, g
}
