package mcp_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/pending"
)

func TestToolsAreTheChatsAndTheServerNamesWisp(t *testing.T) {
	w := newWorld(t)
	var rep struct {
		Server struct{ Name, Version string } `json:"server"`
		Tools  []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema any    `json:"inputSchema"`
		} `json:"tools"`
	}
	w.client("tools", nil, &rep)
	if rep.Server.Name != "wisp" || rep.Server.Version != builtVersion {
		t.Errorf("server %+v, want wisp %s", rep.Server, builtVersion)
	}
	want := map[string]tools.Definition{}
	for _, d := range []tools.Definition{tools.RunCommand(), tools.AddDirectory(), tools.Inspect()} {
		want[d.Name] = d
	}
	if len(rep.Tools) != len(want) {
		t.Fatalf("listed %d tools, want %d", len(rep.Tools), len(want))
	}
	for _, got := range rep.Tools {
		d, ok := want[got.Name]
		if !ok || got.Description != d.Description || !reflect.DeepEqual(got.InputSchema, viaJSON(t, d.Parameters)) {
			t.Errorf("tool %s differs from the chat's:\n got %v\nwant %v", got.Name, got.InputSchema, d.Parameters)
		}
	}
}

func viaJSON(t *testing.T, v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(data, &out)
	return out
}

func TestConfinedCommandRunsAndAWriteOutsideIsRefused(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	refused := filepath.Join(w.outside, "refused")
	rep := w.run(nil,
		runCommand("echo made inside > inside && cat inside", false),
		runCommand("touch "+refused, false))
	if got := rep.Results[0]; got.IsError || !strings.Contains(got.Text, "made inside\n[exit status 0]") {
		t.Errorf("confined command: %+v", got)
	}
	if !exists(filepath.Join(w.project, "inside")) {
		t.Error("the confined command did not write in the project")
	}
	sandboxLine := "\nsandbox: refused writing to " + refused + "; commands may write only under "
	if got := rep.Results[1].Text; !strings.Contains(got, sandboxLine) || strings.Count(got, "\nsandbox:") != 1 {
		t.Errorf("the refusal has no single sandbox: line naming the file:\n%s", got)
	}
	if exists(refused) {
		t.Error("a confined write outside the writable roots was made")
	}
	if len(rep.Elicitations) != 0 {
		t.Errorf("asked %d questions under threshold never", len(rep.Elicitations))
	}
}

// Accept, decline and cancel of an outside-sandbox request, each told
// apart in the result and the audit. With approval.outOfBand on, each is
// filed too, and withdrawn when the dialog answers first.
func TestOutsideSandboxIsAskedThroughElicitation(t *testing.T) {
	w := newWorld(t, "approval.outOfBand", "true")
	cases := []struct {
		action, target, result, decision, reason string
	}{
		{"accept", "accepted", "[exit status 0]\nsandbox: ran outside the sandbox, as the person approved, this once", "approve", ""},
		{"decline", "declined", "error: command not approved: " + mcpDeclined + "; it did not run, in or outside the sandbox", "deny", mcpDeclined},
		{"cancel", "cancelled", "error: command not approved: " + mcpCancelled + "; it did not run, in or outside the sandbox", "deny", mcpCancelled},
	}
	var answers []elicitAnswer
	var calls []call
	for _, c := range cases {
		answers = append(answers, elicitAnswer{Action: c.action})
		calls = append(calls, runCommand("touch "+filepath.Join(w.outside, c.target), true))
	}
	rep := w.run(answers, calls...)
	for i, c := range cases {
		line := calls[i].Arguments["command"].(string)
		checkOutsideDialog(t, rep.Elicitations[i], line, w.project)
		if got := rep.Results[i]; got.Text != c.result || got.IsError != (c.action != "accept") {
			t.Errorf("%s: result %+v, want %q", c.action, got, c.result)
		}
		if made := exists(filepath.Join(w.outside, c.target)); made != (c.action == "accept") {
			t.Errorf("%s: the file outside was made: %v", c.action, made)
		}
		d := w.decided(line)
		if len(d) != 1 || d[0]["decision"] != c.decision || d[0]["by"] != "mcp elicitation" ||
			d[0]["outsideSandbox"] != true || (d[0]["reason"] != nil && d[0]["reason"] != c.reason) {
			t.Errorf("%s: approval.decided %v", c.action, d)
		}
	}
	if left := w.pendingLeft(); len(left) != 0 {
		t.Errorf("pending files left after the dialog answered: %v", left)
	}
}

const (
	mcpDeclined  = "the person declined it in the MCP client"
	mcpCancelled = "the person dismissed the question in the MCP client without answering"
)

func checkOutsideDialog(t *testing.T, e elicitation, line, dir string) {
	t.Helper()
	s := e.RequestedSchema
	if s.Title != "wisp: run OUTSIDE the sandbox? (moderate risk)" || s.Type != "object" ||
		s.Properties == nil || len(s.Properties) != 0 || len(s.Required) != 0 {
		t.Errorf("the outside-sandbox form is not an empty schema titled as decision D19 says: %+v", s)
	}
	want := "Command to run OUTSIDE the sandbox, this once:\n  " + line + "\nin " + dir + "\n· " + pending.OutsideReason + "\n"
	if !strings.HasPrefix(e.Message, want) {
		t.Errorf("message:\n%s\nwant it to open:\n%s", e.Message, want)
	}
}

// An ordinary request offers its scopes; a session answer holds for the
// same line. An outside-sandbox answer with a scope is taken as once,
// audited as downgraded, and asked again the next time.
func TestOrdinaryRequestOffersScopesAndOutsideIsNeverRemembered(t *testing.T) {
	// moderate, set by the operator: the confined default (high) would run
	// touch without asking anyone.
	w := newWorld(t, "approval.threshold", "moderate")
	outside := "touch " + filepath.Join(w.outside, "again")
	rep := w.run([]elicitAnswer{
		{Action: "accept", Content: map[string]any{"scope": "session"}},
		{Action: "accept", Content: map[string]any{"scope": "always"}},
	}, runCommand("touch made", false), runCommand("touch made", false), runCommand(outside, true), runCommand(outside, true))
	if len(rep.Elicitations) != 3 {
		t.Fatalf("asked %d times, want 3 (the session answer holds; outside asks each time)", len(rep.Elicitations))
	}
	ordinary := rep.Elicitations[0].RequestedSchema
	var scope struct {
		Type string   `json:"type"`
		Enum []string `json:"enum"`
	}
	json.Unmarshal(ordinary.Properties["scope"], &scope)
	if ordinary.Title != "wisp: run this command? (moderate risk)" || scope.Type != "string" ||
		!reflect.DeepEqual(scope.Enum, []string{"once", "session", "project", "always", "session-prefix", "project-prefix", "always-prefix"}) {
		t.Errorf("ordinary form: %+v, scope %+v", ordinary, scope)
	}
	for i, r := range rep.Results {
		if r.IsError {
			t.Errorf("call %d: %s", i, r.Text)
		}
	}
	for _, d := range w.decided(outside) {
		if d["decision"] != "approve" || d["scope"] != "once" || d["downgradedFrom"] != "always" {
			t.Errorf("outside answer with a scope: %v", d)
		}
	}
}

func TestClientWithoutElicitationIsToldItCannotAsk(t *testing.T) {
	w := newWorld(t, "approval.threshold", "moderate") // so that touch asks
	target := filepath.Join(w.outside, "never")
	rep := w.run(nil, runCommand("touch "+target, true), runCommand("touch made", false))
	want := "error: command not approved: running outside the sandbox is asked of a person every time, and " +
		"this MCP client cannot ask a person (it does not support elicitation), and approval.outOfBand is off; " +
		"run it without outsideSandbox, or ask the person to run it themselves"
	if got := rep.Results[0]; got.Text != want || !got.IsError {
		t.Errorf("outside without elicitation: %+v\nwant %q", got, want)
	}
	if got := rep.Results[1].Text; !strings.HasPrefix(got, "error: command not approved: no one can be asked here") {
		t.Errorf("an ordinary request nobody can approve: %q", got)
	}
	if exists(target) || exists(filepath.Join(w.project, "made")) {
		t.Error("a command nobody approved ran")
	}
}

func TestOutOfBandAnswerWinsAndWithdrawsTheDialog(t *testing.T) {
	w := newWorld(t, "approval.outOfBand", "true")
	target := filepath.Join(w.outside, "from-the-channel")
	var rep struct {
		Approved             string         `json:"approved"`
		Result               result         `json:"result"`
		ElicitationWithdrawn bool           `json:"elicitationWithdrawn"`
		Elicitations         []elicitAnswer `json:"elicitations"`
	}
	w.client("outOfBandFirst", map[string]any{
		"call": runCommand("touch "+target, true), "pendingDir": filepath.Join(w.home, "pending"),
	}, &rep)
	if !strings.Contains(rep.Approved, "approved once, outside the sandbox") || !exists(target) ||
		!strings.HasSuffix(rep.Result.Text, "sandbox: ran outside the sandbox, as the person approved, this once") {
		t.Errorf("approved %q; result %+v; made %v", rep.Approved, rep.Result, exists(target))
	}
	if !rep.ElicitationWithdrawn {
		t.Error("the client's dialog was not withdrawn when the pending channel answered first")
	}
	if left := w.pendingLeft(); len(left) != 0 {
		t.Errorf("pending files left: %v", left)
	}
}

// markerLine runs copies of sleep named after a marker in a subshell: a
// process group of several processes that a test can find by name.
func markerLine(t *testing.T) (marker, line string) {
	var b [6]byte
	rand.Read(b[:])
	marker = "wisp-mcp-marker-" + hex.EncodeToString(b[:])
	return marker, fmt.Sprintf("cp /bin/sleep ./%[1]s && (./%[1]s 300 & ./%[1]s 301 & wait)", marker)
}

func TestCancelledCallEndsItsProcessGroup(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	marker, line := markerLine(t)
	var rep struct {
		Seen      bool   `json:"seen"`
		Cancelled string `json:"cancelled"`
		After     result `json:"after"`
	}
	w.client("cancel", map[string]any{"marker": marker, "processes": 2, "call": runCommand(line, false)}, &rep)
	if !rep.Seen {
		t.Fatal("the command's processes never ran")
	}
	waitGone(t, marker)
	if !strings.Contains(rep.After.Text, "still serving") {
		t.Errorf("after the cancel the session did not serve: %+v", rep.After)
	}
	for _, o := range w.audit("command.outcome") {
		if o["command"] == line && o["canceled"] != true {
			t.Errorf("command.outcome of the cancelled command: %v", o)
		}
	}
}

func TestDisconnectLeavesNoProcessAndNoPendingFile(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never", "approval.outOfBand", "true")
	marker, line := markerLine(t)
	var rep struct {
		Seen    bool     `json:"seen"`
		PID     int      `json:"pid"`
		Pending []string `json:"pending"`
	}
	w.client("disconnect", map[string]any{
		"marker": marker, "processes": 2, "pendingDir": filepath.Join(w.home, "pending"), "pendingFiles": 1,
		"calls": []call{runCommand(line, false), runCommand("touch "+filepath.Join(w.outside, "waits"), true)},
	}, &rep)
	if !rep.Seen {
		t.Fatalf("the command and the pending request never both waited: %+v", rep)
	}
	waitExited(t, rep.PID)
	waitGone(t, marker)
	if left := w.pendingLeft(); len(left) != 0 {
		t.Errorf("pending files left after the client left: %v", left)
	}
}

// alive lists the running processes whose command line holds marker
// (testenv: /proc on Linux, ps on a Mac).
func alive(t *testing.T, marker string) []int {
	t.Helper()
	var pids []int
	for _, p := range testenv.ProcessesWith(t, marker) {
		pids = append(pids, p.PID)
	}
	return pids
}

// waitGone waits until no process carries marker. The runner gives a
// group two seconds after SIGTERM; the wait allows for a loaded machine.
func waitGone(t *testing.T, marker string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if len(alive(t, marker)) == 0 {
			return
		}
	}
	t.Fatalf("processes of the command outlived it: %v", alive(t, marker))
}

// waitExited waits until pid has exited (a zombie has: nobody may reap it
// in a container).
func waitExited(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !testenv.Running(t, pid) {
			return
		}
	}
	t.Fatalf("wisp mcp (pid %d) did not exit after its client left", pid)
}
