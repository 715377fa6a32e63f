package main

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

// ptyTUI is `wisp tui` on a pseudo-terminal, read back through a
// terminal emulator: what the person sees.
type ptyTUI struct {
	t     *testing.T
	tty   *os.File // the person's side
	slave *os.File
	cmd   *exec.Cmd
	mu    sync.Mutex
	scr   *rendertest.Screen
	ended chan struct{}
}

// tuiWith points the home at srv (a scripted or a replaying server) and
// starts wisp tui at 80x24. colour keeps NO_COLOR out of its environment.
func (e *e2e) tuiWith(srv interface{ URL() string }, colour bool, args ...string) *ptyTUI {
	e.t.Helper()
	e.wisp("config", "set", "model.baseURL", srv.URL())
	cmd := exec.Command(e.bin, append([]string{"tui"}, args...)...)
	cmd.Dir = e.project
	cmd.Env = append(withoutNoColor(os.Environ()), "WISP_HOME="+e.home, "TERM=xterm-256color")
	if !colour {
		cmd.Env = append(cmd.Env, "NO_COLOR=1")
	}
	tty, slave, err := startOnPTY(cmd, 24, 80)
	if err != nil {
		e.t.Fatal(err)
	}
	c := &ptyTUI{t: e.t, tty: tty, slave: slave, cmd: cmd, scr: rendertest.NewScreen(80, 24), ended: make(chan struct{})}
	go func() { cmd.Wait(); close(c.ended) }()
	go c.read()
	e.t.Cleanup(func() {
		cmd.Process.Kill()
		<-c.ended
		tty.Close()
		slave.Close()
		c.screen().Close()
	})
	c.waitFor("sandbox: Landlock ABI")
	return c
}

func (c *ptyTUI) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := c.tty.Read(buf)
		c.screen().Write(buf[:n])
		if err != nil {
			return
		}
	}
}

func (c *ptyTUI) screen() *rendertest.Screen {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scr
}

// resize makes the terminal w×h: a new emulator of that size reads the
// full repaint that follows.
func (c *ptyTUI) resize(w, h int) {
	c.mu.Lock()
	old := c.scr
	c.scr = rendertest.NewScreen(w, h)
	c.mu.Unlock()
	old.Close()
	pty.Setsize(c.tty, &pty.Winsize{Rows: uint16(h), Cols: uint16(w)})
}

// waitFor waits until s is on the screen, on one line or wrapped over
// several (a long path wraps at 80 columns). The wait guards against a
// hang; it is not a timed assertion.
func (c *ptyTUI) waitFor(s string) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if c.shows(s) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("never saw %q on the screen:\n%s", s, c.screen().Text())
}

// shows says whether s is on the screen, on one line or wrapped over
// several. A line's trailing blanks are not kept, so a space the wrap fell
// on is lost: wrapped text is compared without its spaces.
func (c *ptyTUI) shows(s string) bool {
	lines := c.screen().Lines()
	if strings.Contains(strings.Join(lines, "\n"), s) {
		return true
	}
	unspaced := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	return strings.Contains(unspaced(strings.Join(lines, "")), unspaced(s))
}

// waitGone waits until s has left the screen.
func (c *ptyTUI) waitGone(s string) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if !strings.Contains(c.screen().Text(), s) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("%q never left the screen:\n%s", s, c.screen().Text())
}

// typeText types s, and waits until the box shows it after marker.
func (c *ptyTUI) typeText(s, shown string) {
	c.t.Helper()
	c.send(s)
	c.waitFor(shown)
}

func (c *ptyTUI) send(s string) {
	c.t.Helper()
	if _, err := c.tty.Write([]byte(s)); err != nil {
		c.t.Fatal(err)
	}
}

func (c *ptyTUI) exited() {
	c.t.Helper()
	select {
	case <-c.ended:
	case <-time.After(30 * time.Second):
		c.t.Fatalf("wisp tui did not leave; the screen:\n%s", c.screen().Text())
	}
}
