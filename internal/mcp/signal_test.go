package mcp_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SIGTERM (a client stopping its servers, the person's Ctrl-C) ends the
// calls in flight as a disconnect does: no process, no pending file left.
// The Go SDK's client drives this one.
func TestSignalEndsTheCallsInFlight(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never", "approval.outOfBand", "true")
	marker, line := markerLine(t)
	cmd := exec.Command(w.bin, "mcp")
	cmd.Dir, cmd.Env = w.project, w.env()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []map[string]any{
		{"command": line},
		{"command": "touch " + filepath.Join(w.outside, "waits"), "outsideSandbox": true},
	} {
		go cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: args})
	}
	waitFor(t, "the command to run and the request to be filed", func() bool {
		return len(alive(t, marker)) >= 2 && len(w.pendingLeft()) == 1
	})
	cmd.Process.Signal(syscall.SIGTERM)
	waitExited(t, cmd.Process.Pid)
	waitGone(t, marker)
	if left := w.pendingLeft(); len(left) != 0 {
		t.Errorf("pending files left after SIGTERM: %v", left)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("waited in vain for %s", what)
}
