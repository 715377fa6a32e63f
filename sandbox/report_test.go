package sandbox_test

import (
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

// TestProcessGapsReported: where a command's processes may outlive it, or
// where the helper that ends them can be killed by the command, the report
// (and doctor, which prints it) says so; with a PID namespace it does not.
func TestProcessGapsReported(t *testing.T) {
	ll := &sandbox.LandlockFeatures{ABI: 7, Filesystem: true, Scoping: true, SocketFilter: true}
	for _, tc := range []struct {
		name string
		st   sandbox.Status
		want string
	}{
		{"none", sandbox.Status{Backend: "landlock", Landlock: ll, Namespace: sandbox.NamespaceNone}, "without a PID namespace"},
		{"background", sandbox.Status{Backend: "landlock", Landlock: ll, Namespace: sandbox.NamespaceUser, Spec: sandbox.Spec{Background: true}}, "commandPolicy.sandbox.allowBackground"},
		{"user", sandbox.Status{Backend: "landlock", Landlock: ll, Namespace: sandbox.NamespaceUser}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Join(tc.st.Lines(), "\n")
			if tc.want == "" {
				if strings.Contains(lines, "PID namespace") || strings.Contains(lines, "allowBackground") {
					t.Fatalf("the report names a process gap that does not exist here:\n%s", lines)
				}
				return
			}
			if !strings.Contains(lines, "not covered: ") || !strings.Contains(lines, tc.want) {
				t.Fatalf("the report lacks the gap %q:\n%s", tc.want, lines)
			}
		})
	}
}
