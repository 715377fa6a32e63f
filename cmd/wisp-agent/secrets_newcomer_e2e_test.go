package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

// Started around a secret (issue 28 item 1): in the home folder, which
// holds ~/.ssh, every face says in one sentence where it will not start
// and what to do, naming no key the person never set.
func TestEveryFaceRefusesToStartAroundASecret(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	vault := filepath.Join(e.project, ".ssh") // the project is the home here
	if err := os.Mkdir(vault, 0o700); err != nil {
		t.Fatal(err)
	}
	want := "wisp: error: sandbox: wisp will not start in " + e.project + ": it holds the secret " + vault +
		", and in the writable root " + e.project + " a command could rename it and read it; start wisp in a project folder instead"
	for _, args := range [][]string{{"respond", "hello"}, {"run", "true"}, {"mcp"}, {"chat", "--json"}} {
		cmd := e.cmd(args...)
		cmd.Env = append(cmd.Env, "HOME="+e.project)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("wisp %s started around a secret", strings.Join(args, " "))
		}
		if first, _, _ := strings.Cut(string(out), "\n"); first != want {
			t.Errorf("wisp %s said:\n%s\nwant:\n%s", strings.Join(args, " "), out, want)
		}
	}
	for _, face := range []string{"chat", "tui"} {
		t.Run(face+" on a terminal", func(t *testing.T) {
			cmd := exec.Command(e.bin, face)
			cmd.Dir = e.project
			cmd.Env = append(os.Environ(), "WISP_HOME="+e.home, "HOME="+e.project, "TERM=xterm-256color", "NO_COLOR=1")
			c := onPTY(t, cmd, 24, 200)
			c.waitFor("wisp: error: sandbox: wisp will not start in " + e.project)
			<-c.ended
			if !c.shows("start wisp in a project folder instead") {
				t.Errorf("the screen:\n%s", c.screen().Text())
			}
		})
	}
}

// onPTY starts cmd on a pseudo-terminal of rows×cols read back through a
// terminal emulator, and ends it with the test.
func onPTY(t *testing.T, cmd *exec.Cmd, rows, cols int) *ptyTUI {
	t.Helper()
	tty, slave, err := startOnPTY(cmd, uint16(rows), uint16(cols))
	if err != nil {
		t.Fatal(err)
	}
	c := &ptyTUI{t: t, tty: tty, slave: slave, cmd: cmd, scr: rendertest.NewScreen(cols, rows), ended: make(chan struct{})}
	go func() { cmd.Wait(); close(c.ended) }()
	go c.read()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-c.ended
		tty.Close()
		slave.Close()
		c.screen().Close()
	})
	return c
}
