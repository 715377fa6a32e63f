package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

func pathExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// fakeTools makes a folder of executables named tools, a PATH on which
// each is found.
func fakeTools(t *testing.T, dir string, tools ...string) string {
	t.Helper()
	sandboxtest.Mkdirs(t, dir)
	for _, tool := range tools {
		if err := os.WriteFile(filepath.Join(dir, tool), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNewSpecFreshAccount: in a home that never ran go or npm, their
// standard caches are made before any command, as the person (owner, and
// the mode less the umask), and are roots; a tool not on the PATH gets
// nothing made; Cargo's and rustup's nothing without their homes.
func TestNewSpecFreshAccount(t *testing.T) {
	l := newLayout(t)
	path := fakeTools(t, l.base+"/bin", "go", "npm", "pnpm")
	spec := mustSpec(t, l.options("linux", map[string]string{"PATH": path}))
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	for _, made := range []string{"/.cache", "/.cache/go-build", "/go/pkg/mod", "/.npm", "/.local/share/pnpm/store"} {
		p := l.home + made
		info, err := os.Stat(p)
		if err != nil || !info.IsDir() {
			t.Errorf("~%s was not made: %v", made, err)
			continue
		}
		if !slices.Contains(spec.Roots, p) {
			t.Errorf("~%s is made but not a root: %q", made, spec.Roots)
		}
		if want := os.FileMode(0o777 &^ umask); info.Mode().Perm() != want {
			t.Errorf("~%s has mode %v, want %v (0777 less the umask, as the tool would make it)", made, info.Mode().Perm(), want)
		}
		if uid := info.Sys().(*syscall.Stat_t).Uid; int(uid) != os.Geteuid() {
			t.Errorf("~%s belongs to uid %d, want the person's %d", made, uid, os.Geteuid())
		}
	}
	for _, not := range []string{"/.bun", "/.cargo", "/.rustup", "/.yarn"} {
		if pathExists(l.home + not) {
			t.Errorf("~%s was made for a tool that is not here", not)
		}
	}
}

// TestNewSpecMakesNothingInAnotherHome: run for a home that is not its
// user's (root for another account), wisp makes nothing there.
func TestNewSpecMakesNothingInAnotherHome(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can hand the home to another user")
	}
	l := newLayout(t)
	if err := os.Chown(l.home, 1001, 1001); err != nil {
		t.Fatal(err)
	}
	mustSpec(t, l.options("linux", map[string]string{"PATH": fakeTools(t, l.base+"/bin", "go")}))
	if pathExists(l.home+"/.cache") || pathExists(l.home+"/go") {
		t.Error("wisp made caches, as root, in a home that is another user's")
	}
}

// TestNewSpecPackageCaches: each package manager's cache is a root where
// its own setting puts it.
func TestNewSpecPackageCaches(t *testing.T) {
	l := newLayout(t)
	b := l.base
	sandboxtest.Mkdirs(t, b+"/npm-env", b+"/npm-rc", b+"/pnpm/store", b+"/yarn", b+"/bun", b+"/uv", b+"/pip", b+"/poetry",
		l.home+"/.bun/install/cache", l.home+"/.yarn/berry/cache", l.home+"/.npm")
	// The npmrc is read where npm_config_userconfig puts it: ~/.npmrc is a
	// secret, which NewSpec refuses inside the temporary folders' roots.
	sandboxtest.WriteFile(t, b+"/npmrc", "; a comment\n//registry.npmjs.org/:_authToken=secret\ncache = ~/../npm-rc\n")
	for _, tc := range []struct {
		name string
		vars map[string]string
		want []string
	}{
		{"defaults", nil, []string{l.home + "/.npm", l.home + "/.bun/install/cache", l.home + "/.yarn/berry/cache"}},
		{"npm_config_cache beats the npmrc", map[string]string{"npm_config_cache": b + "/npm-env"}, []string{b + "/npm-env"}},
		{"NPM_CONFIG_CACHE", map[string]string{"NPM_CONFIG_CACHE": b + "/npm-env"}, []string{b + "/npm-env"}},
		{"variables", map[string]string{"PNPM_HOME": b + "/pnpm", "YARN_CACHE_FOLDER": b + "/yarn", "BUN_INSTALL_CACHE_DIR": b + "/bun",
			"UV_CACHE_DIR": b + "/uv", "PIP_CACHE_DIR": b + "/pip", "POETRY_CACHE_DIR": b + "/poetry"},
			[]string{b + "/pnpm/store", b + "/yarn", b + "/bun", b + "/uv", b + "/pip", b + "/poetry"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := mustSpec(t, l.options("linux", tc.vars))
			for _, w := range tc.want {
				if !slices.Contains(spec.Roots, filepath.Clean(w)) {
					t.Errorf("roots %q lack %s", spec.Roots, w)
				}
			}
			if slices.Contains(spec.Roots, b+"/pnpm") {
				t.Error("$PNPM_HOME itself, which holds programs on the PATH, is a root")
			}
		})
	}
	t.Run("the npmrc's cache", func(t *testing.T) {
		os.Remove(l.home + "/.npm")
		spec := mustSpec(t, l.options("linux", map[string]string{"npm_config_userconfig": b + "/npmrc"}))
		if !slices.Contains(spec.Roots, b+"/npm-rc") {
			t.Errorf("roots %q lack the npmrc's cache %s", spec.Roots, b+"/npm-rc")
		}
	})
}

// TestNewSpecRustup: rustup's settings file and folders are roots, the
// rest of its home (and Cargo's bin and config) not.
func TestNewSpecRustup(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.home+"/.rustup/toolchains", l.home+"/.cargo/bin")
	sandboxtest.WriteFile(t, l.home+"/.rustup/settings.toml", "version = \"12\"\n")
	spec := mustSpec(t, l.options("linux", nil))
	for _, w := range []string{"settings.toml", "toolchains", "downloads", "tmp", "update-hashes"} {
		if !slices.Contains(spec.Roots, l.home+"/.rustup/"+w) {
			t.Errorf("roots %q lack ~/.rustup/%s", spec.Roots, w)
		}
	}
	for _, n := range []string{l.home + "/.rustup", l.home + "/.cargo", l.home + "/.cargo/bin"} {
		if slices.Contains(spec.Roots, n) {
			t.Errorf("%s is a root", n)
		}
	}
}

// TestNewSpecDarwinKeepsMissingRoots: Seatbelt matches a path that does
// not exist yet, so on macOS a missing cache stays a root.
func TestNewSpecDarwinKeepsMissingRoots(t *testing.T) {
	l := newLayout(t)
	spec := mustSpec(t, l.options("darwin", nil))
	for _, w := range []string{"/Library/Caches", "/Library/Developer", "/Library/org.swift.swiftpm", "/.npm", "/.cargo/.package-cache"} {
		if !slices.Contains(spec.Roots, l.home+w) {
			t.Errorf("roots %q lack the missing ~%s", spec.Roots, w)
		}
	}
	if !slices.Contains(spec.Roots, l.home+"/Library/pnpm/store") {
		t.Errorf("roots %q lack pnpm's macOS store", spec.Roots)
	}
}

// TestSeatbeltProfileOfTheDefaults: a macOS spec built by NewSpec hands
// sandbox-exec ~/.ssh as a secret and known_hosts and config as given
// back, which the profile allows after the denial; the caches that do not
// exist yet are roots the profile allows writing.
func TestSeatbeltProfileOfTheDefaults(t *testing.T) {
	l := newLayout(t)
	spec := mustSpec(t, l.options("darwin", nil))
	args := seatbelt.Args(spec, "true")
	param := func(value string) string {
		for _, a := range args {
			if name, v, ok := strings.Cut(a, "="); ok && v == value {
				return name
			}
		}
		return ""
	}
	ssh, known, config := param(l.home+"/.ssh"), param(l.home+"/.ssh/known_hosts"), param(l.home+"/.ssh/config")
	if !strings.HasPrefix(ssh, "DENYREAD_") || !strings.HasPrefix(known, "ALLOWREAD_") || !strings.HasPrefix(config, "ALLOWREAD_") {
		t.Fatalf("~/.ssh is %q, known_hosts %q, config %q; want a DENYREAD and two ALLOWREAD parameters", ssh, known, config)
	}
	if param(l.home+"/.ssh/id_ed25519") != "" {
		t.Error("the key is a parameter of its own")
	}
	profile := seatbelt.Profile(spec)
	deny := strings.Index(profile, `(subpath (param "`+ssh+`"))`)
	allow := strings.Index(profile, `(subpath (param "`+known+`"))`)
	if deny < 0 || allow < deny {
		t.Errorf("the profile does not give known_hosts and config back after denying ~/.ssh:\n%s", profile)
	}
	for _, root := range []string{"/Library/Developer", "/.npm"} {
		if name := param(l.home + root); !strings.HasPrefix(name, "ROOT_") {
			t.Errorf("the missing ~%s is %q, want a ROOT parameter", root, name)
		}
	}
}
