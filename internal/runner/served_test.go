package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
)

// servedParent is the line that prints the parent's command line: under
// the served helper, "__sandbox-exec ... --serve". It reads /proc inside
// the helper's PID namespace, which only Linux has, as it has the only
// served helper (needServed).
const servedParent = `tr '\0' ' ' < /proc/$PPID/cmdline`

// needServed skips where there is no served helper: only Linux has one
// (sandbox/server_other.go), and elsewhere each command runs through a
// helper of its own, which runner_test.go's tests cover. Run there, these
// would check a helper that is not there, and one stops its parent.
func needServed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has a served sandbox helper; elsewhere each command has its own (runner_test.go)")
	}
}

func TestServedCommandIsConfined(t *testing.T) {
	needServed(t)
	f := newFixture(t, true)
	t.Cleanup(f.r.Close)
	res := f.run(t, runner.Request{Line: servedParent, Origin: runner.Model})
	if !strings.Contains(res.Output, sandbox.HelperCommand) || !strings.Contains(res.Output, "--serve") {
		t.Fatalf("the command's parent is not the served helper: %q", res.Output)
	}
	target := filepath.Join(f.outside, "served")
	res = f.run(t, runner.Request{Line: "touch served-inside && touch " + target, Origin: runner.Model})
	if res.ExitCode == 0 {
		t.Fatal("a served write outside the roots succeeded")
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the served command created the file outside")
	}
	if _, err := os.Stat(filepath.Join(f.project, "served-inside")); err != nil {
		t.Errorf("a served write inside the project failed: %v", err)
	}
}

func TestServedTimeoutEndsTheGroup(t *testing.T) {
	needServed(t)
	f := newFixture(t, true)
	t.Cleanup(f.r.Close)
	f.r.Grace = 100 * time.Millisecond
	m := fmt.Sprintf("wisp-served-marker-%d", time.Now().UnixNano())
	line := fmt.Sprintf("trap '' TERM; sleep 300 & sleep 300; : %s", m)
	res := f.run(t, runner.Request{Line: line, Origin: runner.Model, Timeout: 200 * time.Millisecond})
	if !res.TimedOut {
		t.Fatalf("not reported as timed out: %+v", res)
	}
	if left := commandLinesWith(t, m); len(left) > 0 {
		t.Errorf("processes left behind after the time limit: %v", left)
	}
	if res := f.run(t, runner.Request{Line: servedParent, Origin: runner.Model}); !strings.Contains(res.Output, "--serve") {
		t.Errorf("the served helper did not survive its command's timeout: parent %q", res.Output)
	}
}

func TestServedHelperFollowsANewRoot(t *testing.T) {
	needServed(t)
	f := newFixture(t, true)
	t.Cleanup(f.r.Close)
	f.run(t, runner.Request{Line: "true", Origin: runner.Model})
	target := filepath.Join(f.outside, "granted")
	f.r.Spec.Roots = append(f.r.Spec.Roots, f.outside)
	if res := f.run(t, runner.Request{Line: "touch " + target, Origin: runner.Model}); res.ExitCode != 0 {
		t.Fatalf("a write under a root added after the first command failed: %+v", res)
	}
}

// commandLinesWith lists the running processes whose command line holds s.
func commandLinesWith(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, p := range testenv.ProcessesWith(t, s) {
		out = append(out, p.Args)
	}
	return out
}

// A command that stops its served helper (they share a Landlock domain)
// does not hang the session: its run ends, and the next command runs,
// confined, through a helper of its own.
func TestServedHelperStoppedByItsCommand(t *testing.T) {
	needServed(t)
	f := newFixture(t, true)
	t.Cleanup(f.r.Close)
	done := make(chan string, 1)
	go func() {
		res, err := f.r.Run(context.Background(), runner.Request{Line: "kill -STOP $PPID; sleep 0.05", Origin: runner.Model})
		done <- fmt.Sprintf("exit %d, %q, error %v", res.ExitCode, res.ModelText(), err)
	}()
	select {
	case how := <-done:
		// It either ended unknown (the helper said "started" and then
		// stopped) or was not run again (it stopped before saying so).
		// Or, where the helper is the init of a PID namespace, the stop
		// was lost and the command ended as it would.
		if !strings.Contains(how, "exit status unknown") && !strings.Contains(how, "not run again") && !strings.Contains(how, "[exit status 0]") {
			t.Errorf("the run that stopped its helper: %s", how)
		}
	case <-time.After(8 * time.Second):
		t.Fatal("the runner still waits on a helper its command stopped")
	}
	res := f.run(t, runner.Request{Line: "touch inside-after && touch " + filepath.Join(f.outside, "after"), Origin: runner.Model})
	if res.ExitCode == 0 || !strings.Contains(res.ModelText(), "sandbox:") {
		t.Fatalf("the next command wrote outside the roots, or was not named refused: %q", res.ModelText())
	}
	if _, err := os.Stat(filepath.Join(f.outside, "after")); err == nil {
		t.Error("the next command created the file outside")
	}
	if _, err := os.Stat(filepath.Join(f.project, "inside-after")); err != nil {
		t.Errorf("the next command did not run: %v", err)
	}
}

// The project sits under /tmp, itself a root, so the helper binds the
// project folder, the command's working directory, to protect .git/hooks:
// a relative path from there must meet the read-only bind, through the
// served helper and the per-command one (wisp run) alike. The repository
// is made by a command during the session, as `git init` would: from the
// next command on, it is protected.
func TestGitHooksRefusedForARelativePath(t *testing.T) {
	for _, oneShot := range []bool{false, true} {
		t.Run(fmt.Sprintf("oneShot=%v", oneShot), func(t *testing.T) {
			f := newFixture(t, true)
			t.Cleanup(f.r.Close)
			f.r.OneShot = oneShot
			made := f.run(t, runner.Request{Line: "git init -q . && ls .git/hooks >/dev/null", Origin: runner.Model})
			if made.ExitCode != 0 {
				t.Fatalf("git init in the project failed: %q", made.ModelText())
			}
			for _, line := range []string{"echo evil > .git/hooks/pre-commit", "cd .git && echo evil > hooks/pre-commit",
				"echo '[core] fsmonitor = evil' >> .git/config"} {
				res := f.run(t, runner.Request{Line: line, Origin: runner.Model})
				if res.ExitCode == 0 {
					t.Errorf("%q succeeded: %q", line, res.ModelText())
				}
			}
			if _, err := os.Stat(filepath.Join(f.project, ".git/hooks/pre-commit")); err == nil {
				t.Error(".git/hooks/pre-commit was planted")
			}
		})
	}
}
