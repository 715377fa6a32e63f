package landlock_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// TestServedHelperStopsServingWhenTheWayToASecretChanges: a served helper
// granted the entries beside a secret one by one, at its start; once an
// entry appears there, it no longer serves (a command through it could
// not read the new file), while a command's own helper, whose rules are
// made afresh each time, is given no digest to carry.
func TestServedHelperStopsServingWhenTheWayToASecretChanges(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := newLandlock(t, exe, sandbox.NamespaceAuto)
	// The digest lists every folder on the way to what is unreadable, so
	// the secret and wisp's home both lie on a quiet way: t.TempDir's
	// folders lie in the temporary folder, where other tests and other
	// processes make and remove entries while this one runs.
	dir, secret := landlock.SecretOnAQuietWay(t)
	home := filepath.Join(dir, "wisp-home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: project, WispHome: home,
		UserHome: project, AllowNetwork: true, Getenv: os.Getenv})
	if err != nil {
		t.Fatal(err)
	}
	// The project alone is writable, so that the secret lies outside every
	// root, and the quiet secret alone is denied.
	spec.Roots, spec.DenyRead = spec.Roots[:1], []string{secret}
	sv, err := l.Serve(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sv.Close() })
	argv, err := l.Command(spec, "true")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(argv, "--read-view") {
		t.Errorf("a command's own helper is given the served helper's digest: %q", argv)
	}
	if !sv.Serves(argv) {
		t.Fatalf("the served helper does not serve the spec it was started for: %q", argv)
	}
	if err := os.WriteFile(filepath.Join(dir, "home", "notes"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if argv, err = l.Command(spec, "true"); err != nil {
		t.Fatal(err)
	}
	if sv.Serves(argv) {
		t.Error("the served helper still serves once a file has appeared beside the secret, which its rules do not grant")
	}
}
