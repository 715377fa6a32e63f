package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/cli/agentcli"
)

// TestRunEndsItsCommandWhenTold: a wisp run told to stop (SIGTERM from a
// supervisor, SIGINT from a person) ends the command and every process of
// it, says so, and logs how it ended; nothing of it runs on.
func TestRunEndsItsCommandWhenTold(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			needSandbox(t)
			e := newE2E(t)
			mark := "60." + strings.TrimPrefix(filepath.Base(e.home), "wisp-e2e-home-")
			c := e.cmd("run", "--", "touch started; sleep "+mark)
			var out bytes.Buffer
			c.Stdout, c.Stderr = &out, &out
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			t.Cleanup(func() {
				if c.ProcessState == nil {
					c.Process.Kill()
					<-done
				}
			})
			waitFor(t, 30*time.Second, func() bool {
				_, err := os.Stat(filepath.Join(e.project, "started"))
				return err == nil
			}, "the command to start")
			if err := c.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("wisp run did not end within 30 s of %v:\n%s", sig, out.String())
			}
			if c.ProcessState.ExitCode() == 0 {
				t.Errorf("wisp run told to stop exited 0:\n%s", out.String())
			}
			if !strings.Contains(out.String(), "· stopped") {
				t.Errorf("wisp run does not say it stopped the command:\n%s", out.String())
			}
			if !loggedCanceled(t, e.home) {
				t.Error("the audit log has no command.outcome with canceled")
			}
			if left := processesWith(t, "sleep "+mark); len(left) > 0 {
				t.Errorf("the command's sleep runs on: pids %v", left)
			}
		})
	}
}

func waitFor(t *testing.T, limit time.Duration, ok func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(limit); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited %s for %s", limit, what)
		}
	}
}

func loggedCanceled(t *testing.T, home string) bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(home, "logs", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev struct {
			Event    string `json:"event"`
			Canceled bool   `json:"canceled"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Event == "command.outcome" && ev.Canceled {
			return true
		}
	}
	return false
}

// TestQuickCommandsWatchNoSignals: the commands that wait on nothing
// start without the runtime's signal watcher; those that wait, and any new
// command, watch Ctrl-C and SIGTERM.
func TestQuickCommandsWatchNoSignals(t *testing.T) {
	root := cli.NewRootCmd(app.New(), agentcli.Add)
	for _, tc := range []struct {
		args  []string
		waits bool
	}{
		{[]string{"version"}, false},
		{[]string{"config", "get"}, false},
		{[]string{"policy", "check"}, false},
		{[]string{"approvals", "pending"}, false},
		{[]string{"sandbox", "report"}, false},
		{[]string{"run"}, true},
		{[]string{"logs"}, true},
		{[]string{"chat"}, true},
		{[]string{"doctor"}, true},
		{[]string{}, true},
	} {
		cmd, _, err := root.Find(tc.args)
		if err != nil {
			t.Fatalf("wisp %v: %v", tc.args, err)
		}
		if got := cli.WaitsOnSomething(cmd); got != tc.waits {
			t.Errorf("wisp %v watches the signals: %v, want %v", tc.args, got, tc.waits)
		}
	}
	if !cli.WaitsOnSomething(&cobra.Command{Use: "new"}) {
		t.Error("a new command watches no signals unless it says so")
	}
}
