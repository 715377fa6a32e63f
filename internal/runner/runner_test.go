package runner_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
)

// fixture is a project folder, a wisp home outside it, and a folder
// outside every root that the tests try to write.
type fixture struct {
	project, outside string
	home             config.Home
	r                *runner.Runner
}

func newFixture(t testing.TB, confined bool, edit ...func(*config.Config)) *fixture {
	t.Helper()
	base := t.TempDir()
	// The roots include the temporary directories, so "outside" must be
	// elsewhere: a folder under the user's home, as decision D8's test does.
	userHome, _ := os.UserHomeDir()
	outside, err := os.MkdirTemp(userHome, "wisp-runner-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	f := &fixture{project: filepath.Join(base, "proj"), outside: outside}
	os.MkdirAll(f.project, 0o755)
	homeDir, _ := os.MkdirTemp(userHome, "wisp-runner-home-")
	t.Cleanup(func() { os.RemoveAll(homeDir) })
	f.home = config.Home{Dir: homeDir}
	cfg := config.Default()
	cfg.CommandPolicy.Sandbox.Enabled = confined
	for _, e := range edit {
		e(&cfg)
	}
	pol, _ := policy.New(cfg.CommandPolicy.Deny, cfg.CommandPolicy.Allow)
	f.r = &runner.Runner{
		Config: cfg, Home: f.home, Dir: f.project, Policy: pol,
		Audit: audit.New(f.home, "test", os.Getpid(), time.Now),
		Store: &runner.Store{Dir: f.home.OutputsDir(), FileBytes: 1 << 20, MaxBytes: 4 << 20, Now: time.Now},
	}
	if confined {
		spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: f.project, WispHome: f.home.Dir,
			UserHome: userHome, AllowNetwork: true, Getenv: os.Getenv})
		if err != nil {
			t.Fatal(err)
		}
		exe, _ := os.Executable()
		f.r.Spec = spec
		f.r.Backend, f.r.BackendErr = sandbox.Detect(exe)
		testenv.NeedKernel(t, f.r.BackendErr == nil, "no Landlock here: "+errString(f.r.BackendErr))
	}
	return f
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (f *fixture) run(t *testing.T, req runner.Request) runner.Result {
	t.Helper()
	res, err := f.r.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run(%q): %v", req.Line, err)
	}
	return res
}

func TestConfinedWriteOutsideIsRefusedAndNamed(t *testing.T) {
	f := newFixture(t, true)
	target := filepath.Join(f.outside, "x")
	res := f.run(t, runner.Request{Line: "touch inside && touch " + target, Origin: runner.Model})
	if res.ExitCode == 0 {
		t.Fatal("a write outside the roots succeeded")
	}
	if _, err := os.Stat(filepath.Join(f.project, "inside")); err != nil {
		t.Errorf("a write inside the project failed: %v", err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the file outside was created")
	}
	text := res.ModelText()
	if !strings.Contains(text, "sandbox: refused writing to "+target+"; commands may write only under ") {
		t.Errorf("model text lacks the refusal line:\n%s", text)
	}
	if !strings.HasSuffix(text, "; if it must, ask again with outsideSandbox true (the person approves each run)") {
		t.Errorf("model text lacks decision D23's offer:\n%s", text)
	}
	if !strings.HasPrefix(res.PersonNote, "· the sandbox refused writing to "+target) {
		t.Errorf("person note %q", res.PersonNote)
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"sandboxRefusal":"refused"`, `"sandbox":"`+f.r.Backend.Name()+`"`)
}

// grep reads a file every system has (macOS has no /etc/hostname) and
// finds nothing: exit 1, a plain failure.
func TestPlainFailureGetsNoSandboxLine(t *testing.T) {
	f := newFixture(t, true)
	res := f.run(t, runner.Request{Line: "grep -q nothing-here /etc/hosts", Origin: runner.Model})
	if res.ExitCode != 1 || res.SandboxLine != "" {
		t.Errorf("grep with no match: exit %d, sandbox line %q", res.ExitCode, res.SandboxLine)
	}
}

func TestWispHomeInsideTheProjectIsNeverWritable(t *testing.T) {
	f := newFixture(t, true)
	home := config.Home{Dir: filepath.Join(f.project, ".wisp")}
	home.Ensure()
	userHome, _ := os.UserHomeDir()
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: f.project, WispHome: home.Dir,
		UserHome: userHome, AllowNetwork: true, Getenv: os.Getenv})
	if err != nil {
		t.Fatalf("a project holding wisp's home: %v", err)
	}
	f.r.Spec = spec
	res := f.run(t, runner.Request{Line: "echo x > " + home.ApprovalsFile(), Origin: runner.Model})
	if _, err := os.Stat(home.ApprovalsFile()); err == nil || res.ExitCode == 0 {
		t.Errorf("a confined command wrote into wisp's home (exit %d)", res.ExitCode)
	}
	if !strings.Contains(res.SandboxLine, "sandbox: refused writing to "+home.ApprovalsFile()) {
		t.Errorf("the refusal of wisp's home was not named: %q", res.SandboxLine)
	}
}

func TestOutsideSandboxApprovedRunsOutside(t *testing.T) {
	f := newFixture(t, true)
	f.r.Gate = approveAll{}
	target := filepath.Join(f.outside, "made")
	res := f.run(t, runner.Request{Line: "touch " + target, Origin: runner.Model, OutsideSandbox: true})
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("approved outside run did not write: %v\n%s", err, res.ModelText())
	}
	if !strings.HasSuffix(res.ModelText(), "sandbox: ran outside the sandbox, as the person approved, this once") {
		t.Errorf("result does not end with decision D20's line:\n%s", res.ModelText())
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"outsideSandbox":true`)
}

func TestOutsideSandboxWithoutGateIsRefused(t *testing.T) {
	f := newFixture(t, true)
	res := f.run(t, runner.Request{Line: "true", Origin: runner.Model, OutsideSandbox: true})
	if res.Ran || !res.NotApproved || !strings.Contains(res.Message, "asked of a person every time") {
		t.Errorf("%+v", res)
	}
}

func TestSwitchOffRefusesWithItsText(t *testing.T) {
	f := newFixture(t, true, func(c *config.Config) { c.CommandPolicy.Sandbox.AllowOutsideSandbox = false })
	res := f.run(t, runner.Request{Line: "true", Origin: runner.Model, OutsideSandbox: true})
	want := "error: command denied by policy: running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); "
	if res.Ran || !strings.HasPrefix(res.Message, want) {
		t.Errorf("model: %q", res.Message)
	}
	res = f.run(t, runner.Request{Line: "true", Origin: runner.Person, OutsideSandbox: true})
	if res.Ran || !strings.HasSuffix(res.Message, "type it after a single ! to run it in the sandbox") {
		t.Errorf("person: %q", res.Message)
	}
	if strings.Contains(res.ModelText(), "ask again with outsideSandbox") {
		t.Error("the offer was made with the switch off")
	}
}

func TestSandboxOffChangesNothing(t *testing.T) {
	f := newFixture(t, false)
	f.r.Gate = approveAll{}
	res := f.run(t, runner.Request{Line: "true", Origin: runner.Model, OutsideSandbox: true})
	if !strings.HasSuffix(res.ModelText(), "sandbox: outsideSandbox changed nothing: the sandbox is off here") {
		t.Errorf("%s", res.ModelText())
	}
	res = f.run(t, runner.Request{Line: "true", Origin: runner.Model})
	if !strings.Contains(res.ModelText(), "sandbox: off (commandPolicy.sandbox.enabled is false)") {
		t.Errorf("an unconfined run did not say so: %s", res.ModelText())
	}
	assertAudit(t, f.home, `"outsideSandboxIgnored":"sandbox-off"`)
}

func TestPersonOutsideRunsWithNoGate(t *testing.T) {
	f := newFixture(t, true)
	target := filepath.Join(f.outside, "typed")
	res := f.run(t, runner.Request{Line: "touch " + target, Origin: runner.Person, OutsideSandbox: true})
	if _, err := os.Stat(target); err != nil || !res.OutsideSandbox {
		t.Errorf("!! run did not write outside: %v %+v", err, res)
	}
	assertAudit(t, f.home, `"event":"command.typed"`, `"outsideSandbox":true`)
}

func TestDenyListAppliesToEveryone(t *testing.T) {
	f := newFixture(t, true)
	for _, origin := range []runner.Origin{runner.Model, runner.Person} {
		res := f.run(t, runner.Request{Line: "cd /tmp && sudo true", Origin: origin, OutsideSandbox: true})
		if res.Ran || !res.Denied || !strings.HasPrefix(res.Message, "error: command denied by policy: ") {
			t.Errorf("%s: %+v", origin, res)
		}
	}
}

func TestBoundedOutputAndStore(t *testing.T) {
	f := newFixture(t, true, func(c *config.Config) { c.Limits.OutputBytes = 1024 })
	res := f.run(t, runner.Request{Line: "seq 1 100000", Origin: runner.Model})
	if len(res.Output) > 1200 || !strings.Contains(res.Output, "bytes left out") || !strings.Contains(res.Output, res.OutputID) {
		t.Errorf("bounded view is %d bytes: %.200q", len(res.Output), res.Output)
	}
	stored, err := os.ReadFile(filepath.Join(f.home.OutputsDir(), res.OutputID+".log"))
	if err != nil || !strings.HasSuffix(string(stored), "99999\n100000\n") || int64(len(stored)) != res.OutputBytes {
		t.Errorf("stored output %d bytes (want %d), err %v", len(stored), res.OutputBytes, err)
	}
}

func TestModelTimeLimit(t *testing.T) {
	f := newFixture(t, true)
	f.r.Grace = 100 * time.Millisecond
	res := f.run(t, runner.Request{Line: "sleep 60", Origin: runner.Model, Timeout: 200 * time.Millisecond})
	if !res.TimedOut || !strings.Contains(res.ModelText(), "[timed out after 200ms") {
		t.Errorf("%+v", res)
	}
}

func TestNothingLeftBehindOver100Runs(t *testing.T) {
	// A temporary folder of the test's own: the one CI gives is shared with
	// the packages whose tests run at the same time, and their files come
	// and go there while these 100 commands run.
	t.Setenv("TMPDIR", t.TempDir())
	f := newFixture(t, true, func(c *config.Config) { c.Limits.OutputStoreBytes = 1 << 30 })
	tmp := listDir(t, os.TempDir())
	for i := range 100 {
		line := "echo run"
		if i%2 == 1 {
			line = "touch " + filepath.Join(f.outside, "nope")
		}
		f.run(t, runner.Request{Line: line, Origin: runner.Model})
	}
	if left := listDir(t, f.project); len(left) != 0 {
		t.Errorf("files left in the working directory: %v", left)
	}
	if added := newNames(tmp, listDir(t, os.TempDir())); len(added) > 0 {
		t.Errorf("files left in %s: %v", os.TempDir(), added)
	}
	home := listDir(t, f.home.Dir)
	for _, name := range home {
		if name != "outputs" && name != "logs" && name != "git-baseline" {
			t.Errorf("unexpected %s in wisp's home", name)
		}
	}
	if left := listDir(t, filepath.Join(f.home.Dir, "git-baseline")); len(left) != 1 || !strings.HasSuffix(left[0], ".lock") {
		t.Errorf("with no command running, the record of git's files holds %v, want only the project's lock", left)
	}
	var logs []string
	for _, name := range listDir(t, f.home.OutputsDir()) {
		switch {
		case strings.HasSuffix(name, ".log"):
			logs = append(logs, name)
		case name != ".usage":
			t.Errorf("unexpected %s in the output store", name)
		}
	}
	if len(logs) != 100 {
		t.Errorf("%d outputs stored for 100 runs", len(logs))
	}
}

func listDir(t *testing.T, dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func newNames(before, after []string) []string {
	seen := map[string]bool{}
	for _, n := range before {
		seen[n] = true
	}
	var added []string
	for _, n := range after {
		if !seen[n] && !isGoTestTemp(n) {
			added = append(added, n)
		}
	}
	return added
}

type approveAll struct{}

func (approveAll) Clear(context.Context, runner.GateRequest) (runner.Clearance, error) {
	return runner.Clearance{Approved: true, By: "test", Scope: "once"}, nil
}

// assertAudit checks that some audit line holds every fragment.
func assertAudit(t *testing.T, home config.Home, fragments ...string) {
	t.Helper()
	file, err := os.Open(home.AuditFile())
	if err != nil {
		t.Fatalf("no audit log: %v", err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ok := true
		for _, f := range fragments {
			ok = ok && strings.Contains(sc.Text(), f)
		}
		if ok {
			return
		}
	}
	t.Errorf("no audit line holds all of %q", fragments)
}

// isGoTestTemp tells the toolchain's and go test's own temporary files
// (other packages build and test at the same time) from anything a run
// left behind.
func isGoTestTemp(name string) bool {
	for _, p := range []string{"go-build", "go-link-", "cc", "Test", "Benchmark", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
