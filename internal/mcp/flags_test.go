package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --yes approves what may be approved without a person, never a run
// outside the sandbox (docs/decisions.md, D18).
func TestYesNeverAnswersOutsideTheSandbox(t *testing.T) {
	w := newWorld(t)
	target := filepath.Join(w.outside, "never")
	var rep runReport
	w.client("run", map[string]any{"flags": []string{"--yes"},
		"calls": []call{runCommand("touch made", false), runCommand("touch "+target, true)}}, &rep)
	if got := rep.Results[0]; got.IsError || !exists(filepath.Join(w.project, "made")) {
		t.Errorf("--yes did not approve an ordinary command: %+v", got)
	}
	want := "error: command not approved: running outside the sandbox is asked of a person every time, and " +
		"this MCP client cannot ask a person (it does not support elicitation), and approval.outOfBand is off " +
		"(--yes does not answer it); run it without outsideSandbox, or ask the person to run it themselves"
	if got := rep.Results[1].Text; got != want || exists(target) {
		t.Errorf("outside under --yes: %q\nwant %q", got, want)
	}
}

func TestUnsafeSaysSoOnEveryRun(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	target := filepath.Join(w.outside, "unconfined")
	var rep runReport
	w.client("run", map[string]any{"flags": []string{"--unsafe"},
		"calls": []call{runCommand("touch "+target, false), runCommand("echo asked", true)}}, &rep)
	if got := rep.Results[0].Text; !strings.HasSuffix(got, "\nsandbox: off (--unsafe): this command ran unconfined") || !exists(target) {
		t.Errorf("--unsafe run: %q", got)
	}
	if got := rep.Results[1].Text; !strings.HasSuffix(got, "\nsandbox: outsideSandbox changed nothing: the sandbox is off here") {
		t.Errorf("outsideSandbox under --unsafe: %q", got)
	}
}

// add_directory asks the person through the dialog; once granted, the
// folder is a writable root for the rest of the session.
func TestAddDirectoryGrantsWhatThePersonApproved(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	folder := filepath.Join(w.outside, "work")
	os.Mkdir(folder, 0o755)
	rep := w.run([]elicitAnswer{{Action: "accept"}},
		call{Name: "add_directory", Arguments: map[string]any{"path": folder, "reason": "the fix spans both folders"}},
		runCommand("touch "+filepath.Join(folder, "granted"), false))
	if len(rep.Elicitations) != 1 || !strings.HasPrefix(rep.Elicitations[0].Message, "Let commands write in "+folder+" for this session?\n") ||
		rep.Elicitations[0].RequestedSchema.Title != "wisp: let commands write in "+folder+" for this session?" {
		t.Fatalf("the grant was not put to the person in its own words: %+v", rep.Elicitations)
	}
	if got := rep.Results[0].Text; got != "added "+folder+" to the writable roots for this session" {
		t.Errorf("add_directory: %q", got)
	}
	if !exists(filepath.Join(folder, "granted")) {
		t.Errorf("a write in the granted folder failed: %q", rep.Results[1].Text)
	}
}

// --dir names the project for a client that starts its servers elsewhere.
func TestDirNamesTheProject(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	project := filepath.Join(w.project, "named")
	os.Mkdir(project, 0o755)
	var rep runReport
	w.client("run", map[string]any{"flags": []string{"--dir", project},
		"calls": []call{runCommand("pwd && touch made", false)}}, &rep)
	real, _ := filepath.EvalSymlinks(project)
	if got := rep.Results[0].Text; !strings.HasPrefix(got, real+"\n") || !exists(filepath.Join(project, "made")) {
		t.Errorf("under --dir %s: %q", project, got)
	}
}
