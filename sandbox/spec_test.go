package sandbox_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// layout is a scratch home and project, real folders with real links.
type layout struct {
	base, home, proj, wisp string
}

func newLayout(t *testing.T) layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := layout{base: base, home: base + "/home", proj: base + "/home/src/app", wisp: base + "/home/.wisp"}
	sandboxtest.Mkdirs(t, l.proj, l.wisp)
	return l
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func (l layout) options(goos string, vars map[string]string) sandbox.SpecOptions {
	return sandbox.SpecOptions{LaunchDir: l.proj, WispHome: l.wisp, UserHome: l.home, Getenv: envOf(vars), GOOS: goos, AllowNetwork: true}
}

func mustSpec(t *testing.T, o sandbox.SpecOptions) sandbox.Spec {
	t.Helper()
	spec, err := sandbox.NewSpec(o)
	if err != nil {
		t.Fatalf("NewSpec: %v", err)
	}
	return spec
}

func TestNewSpecLinuxRoots(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.base+"/tmpdir", l.home+"/.cache/go-build", l.home+"/.cargo/registry", l.home+"/go/pkg/mod")
	spec := mustSpec(t, l.options("linux", map[string]string{"TMPDIR": l.base + "/tmpdir"}))
	// With ~/.cargo there, its missing git folder and lock files are made.
	for _, made := range []string{"/.cargo/git", "/.cargo/.package-cache", "/.cargo/.package-cache-mutate", "/.cargo/.global-cache"} {
		if !slices.Contains(spec.Roots, l.home+made) || !pathExists(l.home+made) {
			t.Errorf("~%s is not made and a root: roots %q", made, spec.Roots)
		}
	}
	if spec.Roots[0] != l.proj {
		t.Fatalf("the first root is %s, want the launch directory %s", spec.Roots[0], l.proj)
	}
	for _, want := range []string{l.base + "/tmpdir", "/tmp", l.home + "/.cache", l.home + "/.cache/go-build", l.home + "/.cargo/registry", l.home + "/go/pkg/mod"} {
		if !slices.Contains(spec.Roots, want) {
			t.Errorf("roots %q lack %s", spec.Roots, want)
		}
	}
	if !slices.Contains(spec.Skipped, l.home+"/.rustup/toolchains") || pathExists(l.home+"/.rustup") {
		t.Errorf("with no ~/.rustup, its folders must be skipped and not made: roots %q skipped %q", spec.Roots, spec.Skipped)
	}
	if !spec.Network {
		t.Error("AllowNetwork true gave Network false")
	}
}

func TestNewSpecDarwinRoots(t *testing.T) {
	l := newLayout(t)
	userDir := l.base + "/var/folders/x1/abc"
	sandboxtest.Mkdirs(t, userDir+"/T", l.home+"/Library/Caches/go-build", l.home+"/.cache")
	spec := mustSpec(t, l.options("darwin", map[string]string{"TMPDIR": userDir + "/T/"}))
	for _, want := range []string{userDir + "/T", userDir, l.home + "/Library/Caches", l.home + "/Library/Caches/go-build", l.home + "/.cache"} {
		if !slices.Contains(spec.Roots, want) {
			t.Errorf("roots %q lack %s", spec.Roots, want)
		}
	}
	if slices.Contains(spec.Roots, "/dev/shm") {
		t.Error("/dev/shm is a Linux root, not a macOS one")
	}
}

func TestNewSpecGoCaches(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.base+"/mod", l.base+"/build", l.base+"/gp1/pkg/mod", l.home+"/.config/go", l.base+"/fromfile")
	for _, tc := range []struct {
		name      string
		vars      map[string]string
		envFile   string
		want, not []string
	}{
		{"environment", map[string]string{"GOMODCACHE": l.base + "/mod", "GOCACHE": l.base + "/build"}, "", []string{l.base + "/mod", l.base + "/build"}, nil},
		{"first of GOPATH", map[string]string{"GOPATH": l.base + "/gp1:" + l.base + "/gp2"}, "", []string{l.base + "/gp1/pkg/mod"}, nil},
		{"go env -w file", nil, "GOMODCACHE=" + l.base + "/fromfile\n", []string{l.base + "/fromfile"}, nil},
		{"environment beats the file", map[string]string{"GOMODCACHE": l.base + "/mod"}, "GOMODCACHE=" + l.base + "/fromfile\n", []string{l.base + "/mod"}, []string{l.base + "/fromfile"}},
		{"GOCACHE off", map[string]string{"GOCACHE": "off"}, "", nil, []string{"off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(l.home+"/.config/go/env", []byte(tc.envFile), 0o644); err != nil {
				t.Fatal(err)
			}
			spec := mustSpec(t, l.options("linux", tc.vars))
			for _, w := range tc.want {
				if !slices.Contains(spec.Roots, w) {
					t.Errorf("roots %q lack %s", spec.Roots, w)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(spec.Roots, n) || slices.Contains(spec.Skipped, n) {
					t.Errorf("roots %q or skipped %q hold %s", spec.Roots, spec.Skipped, n)
				}
			}
		})
	}
}

func TestNewSpecRealpaths(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.base+"/real-shared")
	link := l.base + "/link-to-app"
	mustSymlink(t, l.proj, link)
	mustSymlink(t, l.base+"/real-shared", l.home+"/shared")
	o := l.options("linux", nil)
	o.LaunchDir = link
	o.WritablePaths = []string{"~/shared"}
	o.Granted = []string{l.base + "/real-shared"}
	spec := mustSpec(t, o)
	if spec.Roots[0] != l.proj {
		t.Errorf("launched through a link, the first root is %s, want its real path %s", spec.Roots[0], l.proj)
	}
	if n := count(spec.Roots, l.base+"/real-shared"); n != 1 {
		t.Errorf("~/shared and the granted folder are one real folder, listed %d times in %q", n, spec.Roots)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestNewSpecRefuses(t *testing.T) {
	l := newLayout(t)
	for _, tc := range []struct {
		name   string
		change func(*sandbox.SpecOptions)
		is     error
	}{
		{"launched in /", func(o *sandbox.SpecOptions) { o.LaunchDir = "/" }, sandbox.ErrRootIsSlash},
		{"/ as a writable path", func(o *sandbox.SpecOptions) { o.WritablePaths = []string{"/"} }, sandbox.ErrRootIsSlash},
		{"/ reached through a link", func(o *sandbox.SpecOptions) {
			mustSymlink(t, "/", l.base+"/slash")
			o.Granted = []string{l.base + "/slash"}
		}, sandbox.ErrRootIsSlash},
		{"a relative writable path", func(o *sandbox.SpecOptions) { o.WritablePaths = []string{"build"} }, nil},
		{"a root inside wisp's home", func(o *sandbox.SpecOptions) { o.WritablePaths = []string{l.wisp} }, nil},
		{"a relative launch directory", func(o *sandbox.SpecOptions) { o.LaunchDir = "src" }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := l.options("linux", nil)
			tc.change(&o)
			_, err := sandbox.NewSpec(o)
			if err == nil {
				t.Fatal("NewSpec accepted it")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %v is not %v", err, tc.is)
			}
			t.Log(err)
		})
	}
}

func TestNewSpecProtectsGit(t *testing.T) {
	l := newLayout(t)
	git := l.proj + "/.git"
	sandboxtest.Mkdirs(t, git+"/hooks", git+"/objects")
	sandboxtest.WriteFile(t, git+"/config", "[core]\n\thooksPath = .githooks\n")
	spec := mustSpec(t, l.options("linux", nil))
	for _, want := range []string{l.wisp, git + "/hooks", git + "/config", l.proj + "/.githooks"} {
		if !slices.Contains(spec.Protected, want) {
			t.Errorf("protected %q lacks %s", spec.Protected, want)
		}
	}
	for _, writable := range []string{git, git + "/objects"} {
		if slices.Contains(spec.Protected, writable) {
			t.Errorf("%s is protected; commits need it writable", writable)
		}
	}
	if spec.Home != l.wisp {
		t.Errorf("Home = %s, want %s", spec.Home, l.wisp)
	}
}

// TestNewSpecProtectsLinkedWorktree: a .git file points at the worktree's
// git directory, whose commondir holds the hooks and config git runs.
func TestNewSpecProtectsLinkedWorktree(t *testing.T) {
	l := newLayout(t)
	main := l.base + "/main-repo/.git"
	wt := main + "/worktrees/app"
	sandboxtest.Mkdirs(t, main+"/hooks", wt)
	sandboxtest.WriteFile(t, l.proj+"/.git", "gitdir: "+wt+"\n")
	sandboxtest.WriteFile(t, wt+"/commondir", "../..\n")
	sandboxtest.WriteFile(t, wt+"/config.worktree", "")
	spec := mustSpec(t, l.options("linux", nil))
	for _, want := range []string{wt + "/hooks", wt + "/config", wt + "/config.worktree", main + "/hooks", main + "/config"} {
		if !slices.Contains(spec.Protected, want) {
			t.Errorf("protected %q lacks %s", spec.Protected, want)
		}
	}
}

// TestNewSpecProtectsBothFormsOfALinkedHome: a home reached through a link
// is protected as its real path and as the link, which a command could
// otherwise swap.
func TestNewSpecProtectsBothFormsOfALinkedHome(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.base+"/elsewhere")
	mustSymlink(t, l.base+"/elsewhere", l.proj+"/wisp-home")
	o := l.options("linux", nil)
	o.WispHome = l.proj + "/wisp-home"
	spec := mustSpec(t, o)
	if spec.Home != l.base+"/elsewhere" || !slices.Contains(spec.Protected, l.proj+"/wisp-home") {
		t.Fatalf("Home %s, protected %q", spec.Home, spec.Protected)
	}
}

// TestNewSpecCreatesNothing: building a spec leaves the launch directory as
// it was (peers plant stub files there; wisp must not). The caches it
// makes in the home are roots_test.go's.
func TestNewSpecCreatesNothing(t *testing.T) {
	l := newLayout(t)
	sandboxtest.Mkdirs(t, l.proj+"/.git/hooks")
	before := listTree(t, l.proj)
	mustSpec(t, l.options("linux", nil))
	if after := listTree(t, l.proj); !slices.Equal(before, after) {
		t.Fatalf("NewSpec changed the tree:\nbefore %q\nafter  %q", before, after)
	}
}

func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		out = append(out, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A root that becomes a repository during a session (git init) has its
// git files protected from the next refresh on; the spec it came from is
// left as it was, and a second refresh adds nothing.
func TestRefreshProtectsANewRepository(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: proj, WispHome: filepath.Join(dir, "home"),
		UserHome: dir, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	before := append([]string(nil), spec.Protected...)
	if got := spec.Refresh().Protected; !slices.Equal(got, before) {
		t.Fatalf("a refresh with no repository changed the protected paths: %q -> %q", before, got)
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".git/config"), []byte("[core]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refreshed := spec.Refresh()
	for _, p := range []string{filepath.Join(proj, ".git/hooks"), filepath.Join(proj, ".git/config")} {
		if !slices.Contains(refreshed.Protected, p) {
			t.Errorf("after git init, %s is not protected: %q", p, refreshed.Protected)
		}
	}
	if !slices.Equal(spec.Protected, before) {
		t.Errorf("Refresh changed the spec it came from: %q", spec.Protected)
	}
	if again := refreshed.Refresh(); !slices.Equal(again.Protected, refreshed.Protected) {
		t.Errorf("a second refresh changed the protected paths: %q -> %q", refreshed.Protected, again.Protected)
	}
}
