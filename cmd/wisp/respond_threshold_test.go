package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/runner"
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
	if got := toolResults(srv, 2); !strings.Contains(got, "error: command not approved: "+nobodyToAsk+"; it did not run") {
		t.Errorf("for rm -r build the model read %q", got)
	}
	if stdout.String() != "Created hello.go.\n" {
		t.Errorf("stdout %q", stdout.String())
	}
}

// The session's threshold follows how its commands run: high confined,
// moderate with --unsafe, the sandbox off by config, or nested; a set
// threshold as set in each.
func TestSessionThresholdFollowsTheRunner(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		enabled, unsafe, nested bool
		set, want               string
	}{
		{"confined", true, false, false, "", "high"},
		{"--unsafe", true, true, false, "", "moderate"},
		{"sandbox off", false, false, false, "", "moderate"},
		{"nested", true, false, true, "", "moderate"},
		{"set, confined", true, false, false, "moderate", "moderate"},
		{"set, nested", true, false, true, "low", "low"},
		{"set, off", false, false, false, "never", "never"},
	} {
		cfg := config.Default()
		cfg.CommandPolicy.Sandbox.Enabled = tc.enabled
		cfg.Approval.Threshold = tc.set
		s := &session{cfg: cfg, runner: &runner.Runner{Config: cfg, Unsafe: tc.unsafe, Nested: tc.nested}}
		if got := s.threshold().Level; got != tc.want {
			t.Errorf("%s: threshold %q, want %q", tc.name, got, tc.want)
		}
	}
}
