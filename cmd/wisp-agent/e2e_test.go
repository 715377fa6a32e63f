package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/cli"
)

// wispBin is this test binary under the name wisp: testscript.Main runs it
// as wisp when it is invoked by that name, so end-to-end tests drive real
// wisp processes.
func wispBin(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "wisp")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// e2e is a project folder and a wisp home for real wisp processes.
type e2e struct {
	t             *testing.T
	bin, project  string
	home, outside string
}

func newE2E(t *testing.T) *e2e {
	userHome, _ := os.UserHomeDir()
	outside, err := os.MkdirTemp(userHome, "wisp-e2e-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	home, _ := os.MkdirTemp(userHome, "wisp-e2e-home-")
	t.Cleanup(func() { os.RemoveAll(home) })
	e := &e2e{t: t, bin: wispBin(t), project: t.TempDir(), home: home, outside: outside}
	e.wisp("config", "set", "approval.outOfBand", "true")
	return e
}

func (e *e2e) cmd(args ...string) *exec.Cmd {
	c := exec.Command(e.bin, args...)
	c.Dir = e.project
	c.Env = append(os.Environ(), "WISP_HOME="+e.home)
	// No controlling terminal: the pending channel is the only face.
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return c
}

func (e *e2e) wisp(args ...string) string {
	e.t.Helper()
	out, err := e.cmd(args...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("wisp %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// start runs wisp in the background and returns a function that waits for
// it and gives its output and exit code.
func (e *e2e) start(args ...string) func() (string, int) {
	c := e.cmd(args...)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		e.t.Fatal(err)
	}
	// A test that fails early must not leave a wisp waiting for an answer.
	e.t.Cleanup(func() {
		if c.ProcessState == nil {
			c.Process.Kill()
			c.Wait()
		}
	})
	return func() (string, int) {
		c.Wait()
		return out.String(), c.ProcessState.ExitCode()
	}
}

type listed struct {
	ID             string `json:"id"`
	Command        string `json:"command"`
	OutsideSandbox bool   `json:"outsideSandbox"`
	Digest         string `json:"digest"`
	Face           string `json:"face"`
}

// waitPending waits until `wisp approvals pending --json` lists n requests.
func (e *e2e) waitPending(n int) []listed {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		var l []listed
		if err := json.Unmarshal([]byte(e.wisp("approvals", "pending", "--json")), &l); err != nil {
			e.t.Fatal(err)
		}
		if len(l) == n {
			return l
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatalf("%d requests never became pending", n)
	return nil
}

// waitGone waits until the requester has removed a refused answer.
func (e *e2e) waitGone(file string) {
	e.t.Helper()
	for range 600 {
		if _, err := os.Stat(file); err != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatalf("%s was never removed", file)
}

func TestRunAskApprovedFromAnotherProcess(t *testing.T) {
	e := newE2E(t)
	os.MkdirAll(filepath.Join(e.project, "build"), 0o755)
	wait := e.start("run", "--ask", "--", "rm -r build && echo removed")
	req := e.waitPending(1)[0]
	if req.Command != "rm -r build && echo removed" || req.OutsideSandbox {
		t.Fatalf("listed %+v", req)
	}
	e.wisp("approvals", "approve", req.ID)
	out, code := wait()
	if code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(e.project, "build")); err == nil {
		t.Error("the approved command did not run")
	}
	if left, _ := os.ReadDir(filepath.Join(e.home, "pending")); len(left) != 0 {
		t.Errorf("pending files left behind: %v", left)
	}
}

func TestRunAskDeniedExits4(t *testing.T) {
	e := newE2E(t)
	wait := e.start("run", "--ask", "--", "rm -r build")
	e.wisp("approvals", "deny", e.waitPending(1)[0].ID)
	out, code := wait()
	if code != cli.ExitNotApproved || !strings.Contains(out, "wisp: error: command not approved: the person denied it") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestOutsideSandboxApprovedOnceFromAnotherProcess(t *testing.T) {
	e := newE2E(t)
	target := filepath.Join(e.outside, "made-outside")
	// Refused confined first: the sandbox is real.
	if out, code := e.start("run", "--", "touch "+target)(); code == 0 || !strings.Contains(out, "· the sandbox refused writing to "+target) {
		t.Fatalf("a confined write outside was not refused by the sandbox (exit %d):\n%s", code, out)
	}
	wait := e.start("run", "--ask", "--outside-sandbox", "--", "touch "+target)
	req := e.waitPending(1)[0]
	if !req.OutsideSandbox {
		t.Fatalf("the request is not marked outside the sandbox: %+v", req)
	}
	said := e.wisp("approvals", "approve", req.ID, "--scope", "session")
	if !strings.Contains(said, "approved once, outside the sandbox (session is taken as once): touch "+target) {
		t.Errorf("approve said %q", said)
	}
	out, code := wait()
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("approved outside run did not write: %v", err)
	}
	logs := e.wisp("logs", "--json", "--event", "approval.decided")
	if !strings.Contains(logs, `"downgradedFrom":"session"`) {
		t.Errorf("downgradedFrom not audited:\n%s", logs)
	}
}

func TestEditedRequestIsRefusedAndKeepsWaiting(t *testing.T) {
	e := newE2E(t)
	target := filepath.Join(e.outside, "edited")
	wait := e.start("run", "--ask", "--outside-sandbox", "--", "touch "+target)
	req := e.waitPending(1)[0]
	file := filepath.Join(e.home, "pending", req.ID+".request.json")
	data, _ := os.ReadFile(file)
	// The command changed under the person's eyes: the face shows and
	// binds the edited bytes, which are not the bytes the requester wrote.
	edited := bytes.Replace(data, []byte(target), []byte(target+"-elsewhere"), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("could not find the command to edit in %s", data)
	}
	os.WriteFile(file, edited, 0o600)
	// A face that reads the edited file answers for those bytes; the
	// requester refuses it and keeps waiting.
	e.wisp("approvals", "approve", req.ID)
	e.waitGone(filepath.Join(e.home, "pending", req.ID+".answer.json"))
	again := e.waitPending(1)
	os.WriteFile(file, data, 0o600)
	e.wisp("approvals", "deny", again[0].ID)
	out, code := wait()
	if code != cli.ExitNotApproved {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("an answer to an edited request ran the command")
	}
	logs := e.wisp("logs", "--json", "--event", "approval.answerRefused")
	if !strings.Contains(logs, "answerRefused") {
		t.Errorf("the refused answer was not audited:\n%s", logs)
	}
}
