package landlock_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// The figure issue 3 sets: a confined `true` costs at most twice an
// unconfined one through the same runner. Measure with
//
//	go test ./sandbox -run '^$' -bench . -benchtime 300x
//
// Each iteration runs the plain and the confined command back to back, the
// way a runner starts them (own process group, output captured), so the
// reported confined/plain ratio compares runs made at the same moment on a
// busy machine.

// buildWisp builds wisp as it ships (CGO_ENABLED=0), or skips.
func buildWisp(b *testing.B) string {
	b.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go tool to build wisp with")
	}
	out := filepath.Join(b.TempDir(), "wisp")
	cmd := exec.Command(goTool, "build", "-o", out, "github.com/wisp-sh/wisp/cmd/wisp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("cannot build wisp: %v\n%s", err, msg)
	}
	return out
}

// runnerRun starts argv as a runner does and returns how long it took, in
// wall time and in CPU time (user and system, from wait4, which counts the
// helper, what it execs and what it waited for).
func runnerRun(b *testing.B, argv []string, attr *syscall.SysProcAttr, dir string) (wall, cpu time.Duration) {
	var out bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
	if attr == nil {
		attr = &syscall.SysProcAttr{}
	}
	attr.Setpgid = true
	cmd.SysProcAttr = attr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// compare runs base and measured alternately and reports the measured
// run's wall time and its ratio to the base, in wall and in CPU time.
func compare(b *testing.B, dir string, base, measured []string, attr *syscall.SysProcAttr, ratioName string) {
	var wallBase, wallMeasured, cpuBase, cpuMeasured time.Duration
	n := 0
	for b.Loop() {
		w, c := runnerRun(b, base, nil, dir)
		wallBase, cpuBase = wallBase+w, cpuBase+c
		w, c = runnerRun(b, measured, attr, dir)
		wallMeasured, cpuMeasured = wallMeasured+w, cpuMeasured+c
		n++
	}
	b.ReportMetric(float64(wallBase.Microseconds())/float64(n), "base-µs")
	b.ReportMetric(float64(wallMeasured.Microseconds())/float64(n), "µs")
	b.ReportMetric(float64(wallMeasured)/float64(wallBase), ratioName)
	b.ReportMetric(float64(cpuMeasured)/float64(cpuBase), "cpu-"+ratioName)
}

// BenchmarkConfinedTrue: `true` confined by the real wisp binary's helper
// against `/bin/sh -c true` unconfined, for each way the helper works.
func BenchmarkConfinedTrue(b *testing.B) {
	wisp := buildWisp(b)
	for _, tc := range []struct {
		name    string
		ns      sandbox.Namespace
		git     bool // a repository, so .git/hooks and .git/config need binding
		useAttr bool // the runner starts the helper in the user namespace itself
	}{
		{"landlock-only", sandbox.NamespaceAuto, false, false},
		{"landlock+mount-namespace", sandbox.NamespaceMount, true, false},
		{"landlock+user-namespace", sandbox.NamespaceUser, true, false},
		{"landlock+user-namespace-started-by-runner", sandbox.NamespaceUser, true, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				b.Skip("needs root")
			}
			l := newLandlock(b, wisp, tc.ns)
			p := benchProject(b, tc.git)
			argv, attr, err := l.CommandAttr(p.spec, "true")
			if !tc.useAttr {
				attr = nil
				argv, err = l.Command(p.spec, "true")
			}
			if err != nil {
				b.Fatal(err)
			}
			compare(b, p.dir, sandbox.Plain("true"), argv, attr, "confined/plain")
		})
	}
}

// BenchmarkHelperStart isolates the helper's own start: the helper exec'ing
// /bin/true against /bin/true alone; for scale, the floor of any Go program
// (a static one that only execs /bin/true), `wisp version`, which goes
// through every package init and cobra as the helper does not, and the
// shell's own start.
func BenchmarkHelperStart(b *testing.B) {
	wisp := buildWisp(b)
	dir := b.TempDir()
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"helper-exec-true", []string{wisp, sandbox.HelperCommand, "--root", dir, "--", "/bin/true"}},
		{"go-floor-exec-true", []string{buildGoFloor(b)}},
		{"wisp-version-via-cobra", []string{wisp, "version"}},
		{"sh-c-true", sandbox.Plain("true")},
	} {
		b.Run(tc.name, func(b *testing.B) { compare(b, dir, []string{"/bin/true"}, tc.argv, nil, "x-bin-true") })
	}
}

func benchProject(b *testing.B, git bool) project {
	b.Helper()
	base, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	p := project{dir: base + "/proj", home: base + "/wisp-home"}
	sandboxtest.Mkdirs(b, p.dir, p.home)
	if git {
		sandboxtest.Mkdirs(b, p.dir+"/.git/hooks")
		sandboxtest.WriteFile(b, p.dir+"/.git/config", "[core]\n")
	}
	p.spec, err = sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: p.dir, WispHome: p.home, UserHome: base,
		AllowNetwork: true, Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	p.spec.Roots = p.spec.Roots[:1]
	return p
}

// buildGoFloor builds the smallest Go program that does what the helper
// ends with: exec /bin/true.
func buildGoFloor(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	sandboxtest.WriteFile(b, dir+"/go.mod", "module floor\n\ngo 1.24\n")
	sandboxtest.WriteFile(b, dir+"/main.go", `package main

import "syscall"

func main() { syscall.Exec("/bin/true", []string{"/bin/true"}, nil) }
`)
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go tool")
	}
	cmd := exec.Command(goTool, "build", "-o", dir+"/floor", ".")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build the Go floor: %v\n%s", err, msg)
	}
	return dir + "/floor"
}
