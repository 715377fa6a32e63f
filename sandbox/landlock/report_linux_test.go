package landlock_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// TestReportHere reports on the real kernel: the backend, what Landlock
// enforces, the namespace, the roots and protected paths.
func TestReportHere(t *testing.T) {
	newLandlock(t, testExecutable(t), sandbox.NamespaceAuto) // skips without Landlock
	p := newProject(t, false)
	st := sandbox.Report(testExecutable(t), p.spec)
	if st.Err != nil || st.Backend != "landlock" || st.Landlock == nil || st.Landlock.ABI < 1 {
		t.Fatalf("Report = %+v", st)
	}
	if st.Namespace == sandbox.NamespaceAuto {
		t.Error("the namespace was not probed although .git lies in the root")
	}
	lines := strings.Join(st.Lines(), "\n")
	for _, want := range []string{"writable: " + p.dir, "protected: " + p.dir + "/.git/hooks", "protected: " + p.home} {
		if !strings.Contains(lines, want) {
			t.Errorf("report lacks %q:\n%s", want, lines)
		}
	}
	t.Logf("summary: %s\n%s", st.Summary(), lines)
}

func TestReportRefusesUnusableExecutable(t *testing.T) {
	st := sandbox.Report("/nonexistent/wisp", sandbox.Spec{})
	if !errors.Is(st.Err, sandbox.ErrUnavailable) {
		t.Fatalf("Report with a missing helper: %v, want ErrUnavailable", st.Err)
	}
}
