package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// The resolver shares folders between paths; each answer must be the one
// realpath and realpathMissingOK give for that path alone, or a secret
// behind a link would be kept from its real path and stay readable.
func TestResolverAgreesWithRealpath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := func(p string) string { return filepath.Join(base, p) }
	for _, dir := range []string{"home/.config/gh", "elsewhere/store", "real"} {
		if err := os.MkdirAll(at(dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(at("home/.netrc"), nil, 0o600)
	links := map[string]string{
		"home/.aws":             at("elsewhere/store"), // absolute
		"home/.kube":            "../elsewhere",        // relative, to a folder
		"home/.config/gcloud":   "../.aws",             // a link to a link
		"home/.docker":          at("nowhere/at/all"),  // dangling
		"home/loop":             "loop2",
		"home/loop2":            "loop",
		"linkhome":              "home", // a folder on the way is a link
		"home/.config/op-share": "/",
	}
	for name, target := range links {
		if err := os.Symlink(target, at(name)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"home", "home/.config", "home/.config/gh", "home/.config/gh/hosts.yml",
		"home/.aws", "home/.aws/credentials", "home/.kube", "home/.kube/store/config",
		"home/.config/gcloud", "home/.config/gcloud/x", "home/.docker", "home/.docker/config.json",
		"home/loop", "home/loop/x", "linkhome/.aws/credentials", "linkhome/.config/gh",
		"home/.netrc", "home/.netrc/inside", "home/missing/deeper/still", "linkhome/missing/x",
		"home/.config/op-share", "home/.config/op-share/etc",
		"home/./.config/../.aws//credentials",
	}
	var r Resolver
	for range 2 { // the second time from the memo
		for _, p := range paths {
			abs := at(p)
			wantReal, wantErr := Realpath(abs)
			gotReal, gotErr := r.Realpath(abs)
			if gotReal != wantReal || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("realpath %s: resolver %q, %v; realpath %q, %v", p, gotReal, gotErr, wantReal, wantErr)
			}
			if got, want := r.MissingOK(abs), RealpathMissingOK(abs); got != want {
				t.Errorf("missingOK %s: resolver %q, realpathMissingOK %q", p, got, want)
			}
		}
	}
	if got, want := r.MissingOK("/"), RealpathMissingOK("/"); got != want {
		t.Errorf("missingOK /: %q, want %q", got, want)
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a/b", true}, {"/a/b/c", "/a/b", true}, {"/a/bc", "/a/b", false}, {"/a", "/a/b", false}, {"/x", "/", true},
	} {
		if got := Within(tc.p, tc.dir); got != tc.want {
			t.Errorf("Within(%q, %q) = %v", tc.p, tc.dir, got)
		}
	}
}
