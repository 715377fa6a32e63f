package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// TestBwrapArgs: bubblewrap's line is wisp's default confinement: all
// read-only, then each root and the project writable, in that order (a
// later bind wins), a PID namespace that ends with the run.
func TestBwrapArgs(t *testing.T) {
	got := strings.Join(bwrapArgs("/home/p/proj", []string{"/tmp", "/home/p/.cache"}), " ")
	want := "--die-with-parent --unshare-pid --ro-bind / / --dev /dev --proc /proc " +
		"--bind /tmp /tmp --bind /home/p/.cache /home/p/.cache --bind /home/p/proj /home/p/proj --chdir /home/p/proj"
	if got != want {
		t.Errorf("bwrap args:\n%s\nwant\n%s", got, want)
	}
}

// TestDefaultRootsThatExist: a root that does not exist is left out, as
// wisp skips it: a fresh account has no ~/.cache to bind.
func TestDefaultRootsThatExist(t *testing.T) {
	home := t.TempDir()
	roots := existing(defaultRoots(home))
	if slices.Contains(roots, filepath.Join(home, ".cache")) {
		t.Errorf("roots %q hold ~/.cache, which does not exist", roots)
	}
	must(t, os.MkdirAll(filepath.Join(home, "go", "pkg", "mod"), 0o755))
	must(t, os.Mkdir(filepath.Join(home, ".cache"), 0o755))
	roots = existing(defaultRoots(home))
	for _, want := range []string{"/tmp", filepath.Join(home, ".cache"), filepath.Join(home, "go", "pkg", "mod")} {
		if !slices.Contains(roots, want) {
			t.Errorf("roots %q lack %s", roots, want)
		}
	}
}

func testSuite(t *testing.T) *suite {
	return &suite{dir: t.TempDir(), wisp: "/opt/wisp/bin/wisp", bwrap: "/usr/bin/bwrap", path: basePath,
		person: person{UID: os.Getuid(), GID: os.Getgid(), Name: "someone"}, account: warm, timeout: time.Minute}
}

func TestArgv(t *testing.T) {
	s := testSuite(t)
	home := t.TempDir()
	for m, want := range map[mode]string{
		bare:  "/bin/sh -c go test ./...",
		wisp:  "/opt/wisp/bin/wisp run -- go test ./...",
		bwrap: "/usr/bin/bwrap --die-with-parent --unshare-pid --ro-bind / / --dev /dev --proc /proc",
	} {
		got := strings.Join(s.argv(m, home, home+"/p", "go test ./..."), " ")
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: %s\nwant it to start %s", m, got, want)
		}
		if m == bwrap && !strings.HasSuffix(got, "--chdir "+home+"/p -- /bin/sh -c go test ./...") {
			t.Errorf("bwrap: %s: want the line run by sh in the project", got)
		}
	}
}

// TestPersonEnv: a run sees a person's login, nothing of the suite's own
// environment (root's GOFLAGS, CI's TMPDIR).
func TestPersonEnv(t *testing.T) {
	s := testSuite(t)
	t.Setenv("GOFLAGS", "-buildvcs=false")
	t.Setenv("TMPDIR", "/ci/tmp")
	env := s.personEnv("/home/p")
	for _, v := range env {
		if strings.HasPrefix(v, "GOFLAGS=") || strings.HasPrefix(v, "TMPDIR=") {
			t.Errorf("the suite's %s leaks into the runs", v)
		}
	}
	for _, want := range []string{"HOME=/home/p", "USER=someone", "PATH=" + basePath} {
		if !slices.Contains(env, want) {
			t.Errorf("env %q lacks %s", env, want)
		}
	}
}

// TestExecAs runs real processes: the outcome is the exit status, the
// output is kept, and a run past its limit ends with every process of it.
func TestExecAs(t *testing.T) {
	s := testSuite(t)
	dir := t.TempDir()
	var out bytes.Buffer
	if _, err := s.execAs([]string{"/bin/sh", "-c", "pwd; echo $HOME; echo to-stderr >&2"}, dir, s.personEnv("/home/p"), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != dir+"\n/home/p\nto-stderr\n" {
		t.Errorf("output %q", got)
	}
	if _, err := s.execAs([]string{"/bin/sh", "-c", "exit 3"}, dir, nil, &out); err == nil {
		t.Error("exit 3 passed")
	}
	s.timeout = 200 * time.Millisecond
	pidFile := filepath.Join(dir, "pid")
	_, err := s.execAs([]string{"/bin/sh", "-c", "sleep 60 & echo $! >" + pidFile + "; wait"}, dir, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "time limit") {
		t.Fatalf("a run past its limit: %v", err)
	}
	pid, err := os.ReadFile(pidFile)
	must(t, err)
	// A killed process closes its files (which ends the run's Wait)
	// a moment before it is a zombie: give it that moment.
	for deadline := time.Now().Add(5 * time.Second); alive(t, strings.TrimSpace(string(pid))) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if alive(t, strings.TrimSpace(string(pid))) {
		t.Errorf("the run's background process %s outlived its time limit", strings.TrimSpace(string(pid)))
	}
}

func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		path, root string
		want       bool
	}{{"/tmp/a", "/tmp", true}, {"/tmp", "/tmp", true}, {"/tmpx/a", "/tmp", false}, {"/work/bin/.compat", "/tmp", false}} {
		if got := within(tt.path, tt.root); got != tt.want {
			t.Errorf("within(%q, %q) = %v", tt.path, tt.root, got)
		}
	}
}

func TestSelectProjects(t *testing.T) {
	ps, err := selectProjects("go-uuid, git-session")
	if err != nil || len(ps) != 2 || ps[0].Name != "go-uuid" || ps[1].Name != "git-session" {
		t.Errorf("selectProjects: %v, %v", ps, err)
	}
	if _, err := selectProjects("go-uuid,nope"); err == nil || !strings.Contains(err.Error(), "the projects are go-uuid") {
		t.Errorf("an unknown project: %v", err)
	}
}

// alive says whether process pid runs: it exists and is no zombie (one
// killed and not yet reaped by whoever inherited it).
func alive(t *testing.T, pid string) bool {
	t.Helper()
	n, err := strconv.Atoi(pid)
	if err != nil {
		t.Fatalf("the run wrote %q as its background process's id", pid)
	}
	return testenv.Running(t, n)
}

// TestInstallWisp: the suite runs copies of wisp and its helpers, made as
// an install makes them, in a folder of its own.
func TestInstallWisp(t *testing.T) {
	built, dir := t.TempDir(), filepath.Join(t.TempDir(), "wisp")
	must(t, os.WriteFile(filepath.Join(built, "wisp"), []byte("wisp"), 0o700))
	must(t, os.WriteFile(filepath.Join(built, "wisp-sandbox"), []byte("helper"), 0o700))
	got, err := installWisp(filepath.Join(built, "wisp"), dir)
	must(t, err)
	if got != filepath.Join(dir, "wisp") {
		t.Errorf("installWisp = %s", got)
	}
	for name, body := range map[string]string{"wisp": "wisp", "wisp-sandbox": "helper"} {
		info, err := os.Stat(filepath.Join(dir, name))
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if err != nil || info.Mode().Perm() != 0o755 || string(data) != body {
			t.Errorf("%s: %v, %v, %q: want a 0755 copy", name, info, err, data)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "wisp-agent")); err == nil {
		t.Error("a wisp-agent appeared that was never built")
	}
	if _, err := installWisp(filepath.Join(built, "nowisp"), dir); err == nil {
		t.Error("installWisp of a wisp that is not there succeeded")
	}
}
