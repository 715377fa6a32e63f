package sandbox_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

func TestStatusSummary(t *testing.T) {
	spec := sandbox.Spec{Roots: []string{"/p", "/tmp"}, Protected: []string{"/h", "/p/.git/hooks"}}
	for _, tc := range []struct {
		name string
		st   sandbox.Status
		want []string
	}{
		{"none", sandbox.Status{Err: &sandbox.UnavailableError{Why: "this kernel has no Landlock"}},
			[]string{"none: no kernel sandbox: this kernel has no Landlock"}},
		{"unprotected", sandbox.Status{Backend: "landlock", Namespace: sandbox.NamespaceNone, NamespaceWhy: "user namespaces are off",
			Spec: sandbox.Spec{Roots: spec.Roots, Protected: spec.Protected, Unprotected: []sandbox.Unprotected{{Path: "/p/.git/hooks", Why: "no mount namespace"}}}},
			[]string{"2 writable roots, 2 protected paths", "no mount namespace (user namespaces are off)", "NOT protected: /p/.git/hooks (no mount namespace)", "network off"}},
		{"nested", sandbox.Status{Backend: "seatbelt", Nested: true, Spec: sandbox.Spec{Network: true}},
			[]string{"seatbelt", "inside another sandbox"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.st.Summary()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("summary %q lacks %q", got, w)
				}
			}
			if tc.st.Spec.Network && strings.Contains(got, "network off") {
				t.Errorf("summary %q says the network is off", got)
			}
		})
	}
}

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
