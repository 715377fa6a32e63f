package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
)

func sh(line string) []string { return []string{"/bin/sh", "-c", line} }

func TestExecuteExitCodes(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"true", 0},
		{"false", 1},
		{"exit 42", 42},
		{"kill -TERM $$", 128 + int(syscall.SIGTERM)},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		res, err := execute(context.Background(), execSpec{argv: sh(tt.line), out: &out})
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if res.exitCode != tt.want {
			t.Errorf("%s: exit %d, want %d", tt.line, res.exitCode, tt.want)
		}
	}
}

func TestExecuteKeepsOrderOfStdoutAndStderr(t *testing.T) {
	var out bytes.Buffer
	_, err := execute(context.Background(), execSpec{argv: sh("echo 1; echo 2 >&2; echo 3"), out: &out})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "1\n2\n3\n" {
		t.Errorf("output %q, want 1 2 3 in order", got)
	}
}

func TestExecuteStdinIsDevNull(t *testing.T) {
	var out bytes.Buffer
	res, _ := execute(context.Background(), execSpec{argv: sh("cat; echo done"), out: &out})
	if res.exitCode != 0 || out.String() != "done\n" {
		t.Errorf("cat read something or hung: exit %d, %q", res.exitCode, out.String())
	}
}

// marker makes a unique command line so the test can look for leftovers.
func marker(t *testing.T) string {
	return fmt.Sprintf("wisp-test-%d-%d", os.Getpid(), time.Now().UnixNano())
}

func TestTimeoutEndsTheWholeGroup(t *testing.T) {
	m := marker(t)
	// A shell that ignores SIGTERM, with a child in the background.
	script := fmt.Sprintf("trap '' TERM; sleep 300 & sleep 300; : %s", m)
	var out bytes.Buffer
	res, err := execute(context.Background(), execSpec{argv: sh(script), out: &out, timeout: 100 * time.Millisecond, grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.timedOut {
		t.Fatalf("not reported as timed out: %+v", res)
	}
	if leftover := processesMatching(t, m); len(leftover) > 0 {
		t.Errorf("processes left behind after the time limit: %v", leftover)
	}
}

func TestCancelEndsTheGroup(t *testing.T) {
	m := marker(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var out bytes.Buffer
	res, _ := execute(ctx, execSpec{argv: sh("sleep 300 & sleep 300; : " + m), out: &out, grace: 100 * time.Millisecond})
	if !res.canceled {
		t.Fatalf("not reported as cancelled: %+v", res)
	}
	if leftover := processesMatching(t, m); len(leftover) > 0 {
		t.Errorf("processes left behind after cancel: %v", leftover)
	}
}

func TestBackgroundChildHoldingThePipeDoesNotHang(t *testing.T) {
	var out bytes.Buffer
	done := make(chan execResult)
	go func() {
		res, _ := execute(context.Background(), execSpec{argv: sh("sleep 300 & echo started"), out: &out})
		done <- res
	}()
	select {
	case res := <-done:
		if res.exitCode != 0 || !strings.Contains(out.String(), "started") {
			t.Errorf("exit %d, output %q", res.exitCode, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("execute waited for a background child that kept the pipe open")
	}
}

// processesMatching lists the running processes whose command line
// contains m (testenv.Processes: /proc on Linux, ps on a Mac).
func processesMatching(t *testing.T, m string) []string {
	t.Helper()
	var found []string
	for range 50 { // the kernel reaps asynchronously; give it a moment
		found = found[:0]
		for _, p := range testenv.ProcessesWith(t, m) {
			found = append(found, fmt.Sprintf("%d: %s", p.PID, p.Args))
		}
		if len(found) == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return found
}
