package seatbelt_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// nestedChildEnv makes the test binary, run inside an outer sandbox by
// TestSeatbeltNestedProbe, check that Nested says so.
const nestedChildEnv = "WISP_SEATBELT_NESTED_CHILD"

// newSeatbelt returns the backend, or skips (fails under
// WISP_REQUIRE_KERNEL=1) where sandbox-exec is missing or wisp's tests
// run inside another sandbox, which refuses a profile of their own.
func newSeatbelt(t *testing.T) sandbox.Backend {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := sandbox.Detect(exe)
	testenv.NeedKernel(t, err == nil, "Seatbelt is not available here")
	testenv.NeedKernel(t, !sandbox.Nested(), "the tests run inside another Seatbelt sandbox, which refuses a nested profile")
	return b
}

// TestSeatbeltConformance runs the suite Landlock runs against the real
// Seatbelt backend, through sandbox-exec, with the same cases; what the
// backend reports it leaves open is said in the options.
func TestSeatbeltConformance(t *testing.T) {
	if os.Getenv(nestedChildEnv) != "" {
		t.Skip("the nested child runs only TestSeatbeltNestedProbe")
	}
	b := newSeatbelt(t)
	exe, _ := os.Executable()
	sandboxtest.Run(t, b, sandboxtest.Options{Probe: exe, NoMPTCPRules: true, NoAbstractSockets: true, NoProcessContainment: true})
}

// TestSeatbeltNestedProbe: run plainly, wisp is not nested; run inside an
// outer sandbox that allows everything, it finds that it is, once, from a
// profile of its own, as decision D2 says.
func TestSeatbeltNestedProbe(t *testing.T) {
	if os.Getenv(nestedChildEnv) != "" {
		if !sandbox.Nested() {
			t.Fatal("inside an outer sandbox, Nested says wisp is not nested")
		}
		return
	}
	newSeatbelt(t) // not nested here
	exe, _ := os.Executable()
	cmd := exec.Command(sandbox.SeatbeltExec, "-p", "(version 1)(allow default)", exe, "-test.run", "^TestSeatbeltNestedProbe$", "-test.count=1")
	cmd.Env = append(os.Environ(), nestedChildEnv+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the test run inside an outer sandbox: %v\n%s", err, out)
	}
}
