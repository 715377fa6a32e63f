package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// BenchmarkChatEnterToSpinner is the whole process's time from the Enter
// a person types on the terminal to the spinner's first frame on it: the
// editor's read, the turn, the message recorded and synced, the context
// measured, the prompt built, the face's draw, the pty. The model then
// answers (released by a file) and the next prompt is awaited.
// Reported as ns/enter-to-spinner.
func BenchmarkChatEnterToSpinner(b *testing.B) {
	exe, _ := os.Executable()
	bin := filepath.Join(b.TempDir(), "wisp")
	os.Symlink(exe, bin)
	home, project := b.TempDir(), b.TempDir()
	gate := filepath.Join(b.TempDir(), "go")
	srv := modeltest.NewServer(b)
	env := append(withoutNoColor(os.Environ()), "WISP_HOME="+home, "TERM=xterm-256color", "NO_COLOR=1")
	set := exec.Command(bin, "config", "set", "model.baseURL", srv.URL())
	set.Env = env
	if out, err := set.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	cmd := exec.Command(bin, "chat")
	cmd.Dir, cmd.Env = project, env
	tty, slave, err := startOnPTY(cmd, 50, 200)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait(); tty.Close(); slave.Close() }()
	var mu sync.Mutex
	var out bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			mu.Lock()
			out.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	mark := 0
	wait := func(s string) time.Time {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
			mu.Lock()
			i := strings.Index(out.String()[mark:], s)
			if i >= 0 {
				mark += i + len(s)
			}
			mu.Unlock()
			if i >= 0 {
				return time.Now()
			}
			time.Sleep(100 * time.Microsecond)
		}
		b.Fatalf("never saw %q", s)
		return time.Time{}
	}
	wait("› ")
	var total time.Duration
	n := 0
	for b.Loop() {
		os.Remove(gate)
		srv.Append(modeltest.Turn{WaitFor: gate, Text: []string{"ok."}})
		tty.Write([]byte("hi"))
		wait("› hi")
		time.Sleep(20 * time.Millisecond) // the Enter comes on its own, as a person's does
		t0 := time.Now()
		tty.Write([]byte("\r"))
		total += wait("waiting for the model").Sub(t0)
		n++
		os.WriteFile(gate, nil, 0o644)
		wait("ok.")
		wait("› ")
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(n), "ns/enter-to-spinner")
}
