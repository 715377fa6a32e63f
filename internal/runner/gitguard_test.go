package runner_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/runner"
)

// commondirAttack is issue 11's item 5: a git folder of the command's own,
// whose config runs a program at every git status, made the repository's
// common folder through .git/commondir, a file that did not exist.
const commondirAttack = `mkdir -p .git/evil && printf '[core]\n\tfsmonitor = %s\n' "$PROGRAM" > .git/evil/config && ` +
	`ln -s ../objects .git/evil/objects && ln -s ../refs .git/evil/refs && cp .git/HEAD .git/evil/HEAD && echo evil > .git/commondir`

// personGit runs a shell line in dir as the person would, unconfined, with
// a git configuration of the test's own.
func personGit(t *testing.T, dir, program, line string) error {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "PROGRAM="+program,
		"GIT_AUTHOR_NAME=p", "GIT_AUTHOR_EMAIL=p@example.com", "GIT_COMMITTER_NAME=p", "GIT_COMMITTER_EMAIL=p@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("%s: %v\n%s", line, err, out)
	}
	return err
}

// markerProgram writes a program that leaves a file when run, outside
// every root, and returns both paths.
func markerProgram(t *testing.T, outside string) (program, marker string) {
	t.Helper()
	program, marker = filepath.Join(outside, "program"), filepath.Join(outside, "ran")
	if err := os.WriteFile(program, []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return program, marker
}

// TestCommondirPlantedThroughTheRunnerIsPutBack: the attack of item 5 run
// by the model through the runner leaves nothing that the person's next
// git status runs, and the model, the person and the audit log are told
// what was put back. Run unconfined by the person, the same attack does
// make git status run the program (the control).
func TestCommondirPlantedThroughTheRunnerIsPutBack(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	f := newFixture(t, true)
	program, marker := markerProgram(t, f.outside)

	control := filepath.Join(t.TempDir(), "control")
	if err := personGit(t, filepath.Dir(control), program, "git init -q control && cd control && git commit -q --allow-empty -m first && "+
		commondirAttack+" && git status"); err != nil {
		t.Fatal("control: the attack failed unconfined")
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("control: unconfined, the attack did not make git status run the program, so the test proves nothing")
	}
	os.Remove(marker)

	if err := personGit(t, f.project, program, "git init -q && git commit -q --allow-empty -m first"); err != nil {
		t.Fatal("could not make the project a repository")
	}
	f.r.Spec = f.r.Spec.Refresh()
	f.r.Env = append(os.Environ(), "PROGRAM="+program)
	res := f.run(t, runner.Request{Line: commondirAttack, Origin: runner.Model})
	t.Logf("model reads:\n%s\nperson reads: %s", res.ModelText(), res.PersonNote)
	if err := personGit(t, f.project, program, "git status"); err != nil {
		t.Logf("git status after the put-back failed: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("after the confined command, the person's git status ran the program it planted")
	}
	commondir := filepath.Join(f.project, ".git/commondir")
	if _, err := os.Lstat(commondir); err == nil {
		t.Error(".git/commondir is still there")
	}
	want := "sandbox: put back what the command wrote where git would have run it at the person's next git command: removed " + commondir
	if !strings.Contains(res.ModelText(), want) {
		t.Errorf("the model is not told what was put back; want %q in:\n%s", want, res.ModelText())
	}
	if !strings.Contains(res.PersonNote, "· the sandbox put back what the command wrote where your git would have run it: removed .git/commondir") {
		t.Errorf("the person is not told what was put back: %q", res.PersonNote)
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"putBack":["`+commondir+`"]`)
}

// TestUntouchedRepositoryReportsNothing: a command that commits reports
// no put-back.
func TestUntouchedRepositoryReportsNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	f := newFixture(t, true)
	if err := personGit(t, f.project, "", "git init -q && git commit -q --allow-empty -m first"); err != nil {
		t.Fatal("could not make the project a repository")
	}
	f.r.Spec = f.r.Spec.Refresh()
	res := f.run(t, runner.Request{Line: "git -c user.name=m -c user.email=m@example.com commit -q --allow-empty -m model", Origin: runner.Model})
	if res.ExitCode != 0 || len(res.PutBack) > 0 || strings.Contains(res.ModelText(), "put back") {
		t.Fatalf("a commit: exit %d, put back %v:\n%s", res.ExitCode, res.PutBack, res.ModelText())
	}
}

// TestTwoCommandsAtOnceDoNotUndoEachOthersPutBack is issue 26's item 2
// through the runner, as wisp mcp's served helper runs calls side by side:
// command B plants a hook in a repository of its own and runs on; command
// A starts and ends meanwhile; then B ends. The person's commit in that
// repository runs nothing.
func TestTwoCommandsAtOnceDoNotUndoEachOthersPutBack(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	f := newFixture(t, true)
	program, marker := markerProgram(t, f.outside)
	if err := personGit(t, f.project, program, "git init -q && git commit -q --allow-empty -m first"); err != nil {
		t.Fatal("could not make the project a repository")
	}
	f.r.Spec = f.r.Spec.Refresh()
	f.r.Env = append(os.Environ(), "PROGRAM="+program, "GIT_AUTHOR_NAME=m", "GIT_AUTHOR_EMAIL=m@example.com",
		"GIT_COMMITTER_NAME=m", "GIT_COMMITTER_EMAIL=m@example.com")
	hook := filepath.Join(f.project, "lib/.git/hooks/post-commit")
	b := make(chan runner.Result)
	go func() {
		res, _ := f.r.Run(context.Background(), runner.Request{Origin: runner.Model, Line: `git init -q lib && ` +
			`printf '#!/bin/sh\n"$PROGRAM"\n' > lib/.git/hooks/post-commit && chmod +x lib/.git/hooks/post-commit && ` +
			`while [ ! -e go ]; do sleep 0.02; done`})
		b <- res
	}()
	for deadline := time.Now().Add(20 * time.Second); !fileExists(hook); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("command B did not plant its hook")
		}
	}
	a := f.run(t, runner.Request{Line: "true", Origin: runner.Model})
	t.Logf("A: %s", a.ModelText())
	if err := os.WriteFile(filepath.Join(f.project, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("B: %s", (<-b).ModelText())
	personGit(t, filepath.Join(f.project, "lib"), program, "git commit -q --allow-empty -m person")
	if fileExists(marker) {
		t.Fatal("the person's commit ran the hook command B planted: A's put-back restored it")
	}
}

// TestCommandNotRunWhenAGitConfigIsTooLargeToCheck: a repository config
// over 1 MiB names hooks and includes wisp cannot follow, so no confined
// command runs, and the model and the person read why.
func TestCommandNotRunWhenAGitConfigIsTooLargeToCheck(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	f := newFixture(t, true)
	if err := personGit(t, f.project, "", `git init -q && printf '[remote "x"]\n' >> .git/config && yes url=a | head -n 200000 >> .git/config`); err != nil {
		t.Fatal("could not make the project a repository")
	}
	f.r.Spec = f.r.Spec.Refresh()
	res := f.run(t, runner.Request{Line: "touch ran", Origin: runner.Model})
	if res.Ran || fileExists(filepath.Join(f.project, "ran")) {
		t.Fatal("the command ran, though wisp could not check the repository's config")
	}
	want := "error: command not run: sandbox: wisp cannot check the git config " + filepath.Join(f.project, ".git/config") + ": it is 1.2 MB"
	if !strings.HasPrefix(res.ModelText(), want) {
		t.Errorf("the model reads %q, want it to start %q", res.ModelText(), want)
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
