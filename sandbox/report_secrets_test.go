package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// TestReportSecrets: the report lists the secrets that exist, what
// allowRead gives back, what cannot be kept, and the dropped variables by
// name, never a value; doctor's summary counts them.
func TestReportSecrets(t *testing.T) {
	dir := t.TempDir()
	ssh := filepath.Join(dir, ".ssh")
	sandboxtest.Mkdirs(t, ssh)
	st := sandbox.Status{Backend: "landlock", DroppedEnv: []string{"OPENAI_API_KEY", "SSH_AUTH_SOCK"}, Spec: sandbox.Spec{
		Roots: []string{"/p"}, Network: true,
		DenyRead:   []string{ssh, filepath.Join(dir, ".aws")},
		AllowRead:  []string{filepath.Join(ssh, "known_hosts")},
		Unreadable: []sandbox.Uncovered{{Path: "/p/.netrc", Why: "it lies inside the writable root /p"}},
	}}
	lines := strings.Join(st.Lines(), "\n")
	for _, want := range []string{
		"unreadable: " + ssh + "\n",
		"unreadable: 1 more secret path, not there yet, hidden should one appear",
		"readable again: " + filepath.Join(ssh, "known_hosts"),
		"NOT unreadable: /p/.netrc (it lies inside the writable root /p)",
		"environment: commands go without OPENAI_API_KEY, SSH_AUTH_SOCK (commandPolicy.sandbox.environment; names only)",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("the report lacks %q:\n%s", want, lines)
		}
	}
	summary := st.Summary()
	for _, want := range []string{"1 secret path unreadable (1 given back), 2 variables kept from commands", "NOT unreadable: /p/.netrc"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary %q lacks %q", summary, want)
		}
	}
}

// TestReportNamesNoValue: Report reads the environment for the names it
// drops and shows none of their values.
func TestReportNamesNoValue(t *testing.T) {
	t.Setenv("REPORT_TEST_API_KEY", "value-that-must-not-show")
	st := sandbox.Report("/nonexistent/wisp", sandbox.Spec{Roots: []string{"/p"}, Env: sandbox.DefaultEnvFilter("", nil, nil)})
	if !strings.Contains(strings.Join(st.DroppedEnv, " "), "REPORT_TEST_API_KEY") {
		t.Errorf("DroppedEnv %q lacks the variable", st.DroppedEnv)
	}
	if text := strings.Join(st.Lines(), "\n") + st.Summary(); strings.Contains(text, "value-that-must-not-show") {
		t.Errorf("the report shows a value:\n%s", text)
	}
}

// TestReportHomeAndCovers: the report says wisp's home is unreadable, and
// by mode what covers it and the secret folders: a namespace's covers, or,
// without one, what a command can still see of them ("not covered").
func TestReportHomeAndCovers(t *testing.T) {
	for _, c := range []struct {
		ns          sandbox.Namespace
		want, wrong string
	}{
		{sandbox.NamespaceUser, "covers wisp's home and the secret folders", "nothing covers wisp's home"},
		{sandbox.NamespaceNone, "not covered: nothing covers wisp's home or a secret folder (no mount namespace)", "covers wisp's home and the secret folders"},
	} {
		st := sandbox.Status{Backend: "landlock", Landlock: &sandbox.LandlockFeatures{ABI: 7, Filesystem: true},
			Namespace: c.ns, NamespaceWhy: "the test says so", Spec: sandbox.Spec{Roots: []string{"/p"}, Home: "/h/.wisp", Network: true}}
		lines := strings.Join(st.Lines(), "\n")
		for _, want := range []string{"unreadable: /h/.wisp (wisp's home, inside a writable root too", c.want} {
			if !strings.Contains(lines, want) {
				t.Errorf("namespace %s: the report lacks %q:\n%s", c.ns, want, lines)
			}
		}
		if strings.Contains(lines, c.wrong) {
			t.Errorf("namespace %s: the report says %q:\n%s", c.ns, c.wrong, lines)
		}
	}
}
