package main

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A project is a real project's source and its own build and test command.
type project struct {
	Name  string
	About string // what it is and why it is here, for -list and docs/compat.md
	// fetch brings the source into dir (empty, the project's own folder in
	// the fetch cache) with the project's ordinary client, as the invoking
	// user (root in CI).
	fetch func(s *suite, dir string) error
	// Warm is what a person's earlier builds of it ran, run once bare as
	// the test user in a copy of the source, with the warm account's home:
	// it fills the caches a warm account has. Empty: nothing to warm.
	Warm string
	// Command is the project's build and test, a shell line run in the
	// project's folder in the home.
	Command string
}

// goProject is a Go module's tests (go test's arguments after -count=1),
// in a writable copy of the module as the module cache holds it.
func goProject(name, module, version, args, about string) project {
	return project{
		Name:    name,
		About:   about,
		fetch:   func(s *suite, dir string) error { return s.goModule(module, version, dir) },
		Warm:    "go test -count=1 -run '^$' " + args,
		Command: "go test -count=1 " + args,
	}
}

// pluginGracefulExit are go-plugin's tests that fail when a plugin does not
// exit gracefully in time; bare, on this machine, a different few of them
// fail each run (a race in go-plugin's shutdown: closing the client gets
// "unexpected EOF" when the plugin exits first).
const pluginGracefulExit = "^TestClient_(Stderr|StderrJSON|TLS|TLS_grpc|grpc|logger|reattach|reattachGRPC|reattachNoProtocol|testInterface|textLogLevel)$"

//go:embed scripts/git-session.sh
var gitSession string

//go:embed scripts/run_tests.py
var pythonRunner string

// zlibVersion is pinned: Debian's security suite lists newer versions of
// zlib's source than its archive serves.
const zlibVersion = "1:1.2.13.dfsg-1"

var projects = []project{
	goProject("go-uuid", "github.com/google/uuid", "v1.6.0", "./...",
		"github.com/google/uuid's tests: a module with no dependencies, the baseline"),
	goProject("go-systemd", "github.com/coreos/go-systemd/v22", "v22.7.0", "./activation ./daemon ./internal/dlopen ./unit ./util",
		"github.com/coreos/go-systemd's tests that need no running systemd or system bus: socket activation and sd_notify over Unix datagram sockets in /tmp"),
	goProject("go-plugin", "github.com/hashicorp/go-plugin", "v1.8.0", "-skip '"+pluginGracefulExit+"' ./...",
		"github.com/hashicorp/go-plugin's tests: plugins as subprocesses over gRPC and net/rpc, on Unix sockets (less 11 that fail bare now and then on a race of their own)"),
	goProject("go-sh", "mvdan.cc/sh/v3", "v3.14.1", "./expand ./fileutil ./interp ./pattern ./shell",
		"mvdan.cc/sh's interpreter tests (not the parser's and shfmt's, for time): files, pipes, and setuid and setgid bits on their own temp files"),
	{
		Name:    "npm-concat-map",
		About:   "the npm package concat-map@0.0.1: npm install of its dev dependency (tape) from the registry, then npm test",
		fetch:   func(s *suite, dir string) error { return s.npmPackage("concat-map@0.0.1", dir) },
		Warm:    "npm install --no-audit --no-fund",
		Command: "npm install --no-audit --no-fund && npm test",
	},
	{
		Name:    "deb-zlib",
		About:   "Debian's source of zlib " + zlibVersion + " (apt-get source): ./configure, make, make check",
		fetch:   func(s *suite, dir string) error { return s.debianSource("zlib", zlibVersion, dir) },
		Command: "./configure && make && make check",
	},
	{
		Name:    "python-socketserver",
		About:   "a venv, then CPython's own socketserver tests (from Debian's libpython3-testsuite) and a multiprocessing.Manager(); a skipped case fails it",
		fetch:   fetchPythonTests,
		Command: "python3 -m venv .venv && .venv/bin/python run_tests.py",
	},
	{
		Name:    "git-session",
		About:   "a person's git session in an existing repository: commits, branches, rebase, stash, worktree, bisect, gc, branch --set-upstream-to",
		fetch:   makeGitRepository,
		Command: "sh git-session.sh",
	},
}

// selectProjects returns the projects names lists (comma-separated), or
// every project for "".
func selectProjects(names string) ([]project, error) {
	if names == "" {
		return projects, nil
	}
	var picked []project
	for _, name := range strings.Split(names, ",") {
		p, ok := findProject(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("no project %q: the projects are %s", name, projectNames())
		}
		picked = append(picked, p)
	}
	return picked, nil
}

func findProject(name string) (project, bool) {
	for _, p := range projects {
		if p.Name == name {
			return p, true
		}
	}
	return project{}, false
}

func projectNames() string {
	names := make([]string, len(projects))
	for i, p := range projects {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// fetchPythonTests takes CPython's test_socketserver.py from Debian's
// test-suite package for the python3 a person runs, beside the runner that
// runs it as the project's suite.
func fetchPythonTests(s *suite, dir string) error {
	version, err := s.output(nil, "python3", "-c", `import sys; print("%d.%d" % sys.version_info[:2])`)
	if err != nil {
		return fmt.Errorf("which python3 a person runs: %w", err)
	}
	version = strings.TrimSpace(version)
	pkg := "libpython" + version + "-testsuite"
	from := filepath.Join("usr", "lib", "python"+version, "test", "test_socketserver.py")
	if err := s.debianFile(pkg, from, filepath.Join(dir, "test_socketserver.py")); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "run_tests.py"), []byte(pythonRunner), 0o644)
}

// makeGitRepository makes the repository a person's session starts in: a
// few commits, and a remote (the repository itself, as "origin") whose
// branches a fetch brings, since a remote is added to .git/config, which a
// confined command may not write.
func makeGitRepository(s *suite, dir string) error {
	git := func(args ...string) error {
		_, err := s.output(gitEnv(dir), "git", append([]string{"-C", dir}, args...)...)
		return err
	}
	steps := [][]string{
		{"init", "-q", "-b", "main"},
		{"remote", "add", "origin", "."},
	}
	for _, step := range steps {
		if err := git(step...); err != nil {
			return err
		}
	}
	files := map[string]string{"README": "a project\n", "main.c": "int main(void) { return 0; }\n", "Makefile": "all:\n", "git-session.sh": gitSession}
	for _, name := range []string{"README", "main.c", "Makefile", "git-session.sh"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(files[name]), 0o644); err != nil {
			return err
		}
		if err := git("add", name); err != nil {
			return err
		}
		if err := git("commit", "-q", "-m", "add "+name); err != nil {
			return err
		}
	}
	return nil
}

// gitEnv is git's environment for making the fixture: no configuration of
// the invoking user's or the system's, and a fixed identity.
func gitEnv(dir string) []string {
	return []string{
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=compat", "GIT_AUTHOR_EMAIL=compat@example.invalid",
		"GIT_COMMITTER_NAME=compat", "GIT_COMMITTER_EMAIL=compat@example.invalid",
		"HOME=" + dir,
	}
}
