package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/cli/agentcli"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/sandbox"
)

// Issue 14: with no flags and no person, `wisp respond` writes in the
// project under the confined default threshold (high), and what still
// needs a person (rm -r) is refused with the existing message.
func TestRespondWritesWithoutAPersonUnderTheConfinedDefault(t *testing.T) {
	needSandbox(t)
	if sandbox.Nested() {
		t.Skip("wisp runs inside another sandbox here: the default is moderate")
	}
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	e.wisp("config", "set", "checkpoints.enabled", "false") // with them on, /undo puts build back: it runs
	if err := os.Mkdir(filepath.Join(e.project, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := `printf 'package main\n\nfunc main() {}\n' > hello.go`
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{"command": write}))}},
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_2", jsonArgs(map[string]any{"command": "rm -r build"}))}},
		modeltest.Turn{Text: []string{"Created hello.go."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	c := e.cmd("respond", "create hello.go with a main")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Env = append(c.Env, "NO_COLOR=1")
	if err := c.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if got, err := os.ReadFile(filepath.Join(e.project, "hello.go")); err != nil || !strings.Contains(string(got), "func main()") {
		t.Errorf("hello.go: %q, %v\n%s", got, err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(e.project, "build")); err != nil {
		t.Errorf("rm -r build ran without a person: %v", err)
	}
	if got := toolResults(srv, 1); strings.Contains(got, "not approved") {
		t.Errorf("the write was not approved: the model read %q", got)
	}
	if got := toolResults(srv, 2); !strings.Contains(got, "error: command not approved: "+agentcli.NobodyToAsk+"; it did not run") {
		t.Errorf("for rm -r build the model read %q", got)
	}
	if stdout.String() != "Created hello.go.\n" {
		t.Errorf("stdout %q", stdout.String())
	}
}

func TestRespondPrintsTheAnswerAndTellsTheModelWhyNot(t *testing.T) {
	if sandbox.Nested() {
		t.Skip("wisp runs inside another sandbox here: outsideSandbox changes nothing")
	}
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "brew upgrade", "outsideSandbox": true}))}},
		modeltest.Turn{Text: []string{"I could ", "not run it."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	c := e.cmd("upgrade everything") // the bare wisp "PROMPT" is respond
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Env = append(c.Env, "NO_COLOR=1")
	if err := c.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stdout.String() != "I could not run it.\n" {
		t.Errorf("stdout %q: only the model's words belong there", stdout.String())
	}
	for _, want := range []string{"● brew upgrade  (asks to run OUTSIDE the sandbox)", "· not approved: running outside the sandbox is asked of a person every time"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if got := toolResults(srv, 1); !strings.Contains(got, "no one can be asked here; run it without outsideSandbox") {
		t.Errorf("the model read %q", got)
	}
	if srv.Requests()[0].Messages[1].Content != "upgrade everything" {
		t.Errorf("the prompt sent was %q", srv.Requests()[0].Messages[1].Content)
	}
}
