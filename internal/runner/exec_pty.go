package runner

import (
	"context"
	"errors"
	"fmt"
	"github.com/wisp-sh/wisp/internal/tty"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// executePTY runs a person's command on a pseudo-terminal between it and
// the person's terminal, as script(1) does: the command sees a terminal
// (so editors, pagers and prompts work, and Ctrl-C reaches it through the
// line discipline), while wisp still sees every byte for the output store
// and the refusal check. The command leads a session of its own, so the
// time limit ends its whole group as for any command.
func executePTY(ctx context.Context, spec execSpec) (execResult, error) {
	report, err := spec.supervise()
	if err != nil {
		return execResult{}, err
	}
	defer report.Close()
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	cmd.Dir, cmd.Env = spec.dir, spec.env
	cmd.ExtraFiles = report.extraFiles()
	// Raw before the command starts: a Ctrl-C typed the moment it prints
	// must reach it as a key, not be taken by the person's terminal.
	restore := rawMode(spec.terminal)
	master, err := pty.StartWithAttrs(cmd, windowSize(spec.terminal), spec.procAttr(true))
	if err != nil {
		restore()
		return execResult{}, fmt.Errorf("start %s on a pseudo-terminal: %w", spec.argv[0], err)
	}
	report.started()
	start := time.Now()
	stopResize := forwardResizes(spec.terminal, master)
	stopInput := forwardInput(spec.terminal, master)
	copied := make(chan struct{})
	go func() { io.Copy(spec.out, master); close(copied) }()
	res := waitGroup(ctx, cmd, spec)
	drain(master, copied, cmd.Process.Pid)
	res.stopped = report.read()
	stopInput()
	stopResize()
	restore()
	res.duration = time.Since(start)
	return res, nil
}

func windowSize(t *os.File) *pty.Winsize {
	var ws *pty.Winsize
	tty.Control(t, func(fd int) {
		if w, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil {
			ws = &pty.Winsize{Rows: w.Row, Cols: w.Col, X: w.Xpixel, Y: w.Ypixel}
		}
	})
	return ws
}

// rawMode hands every key to the command's terminal, which does its own
// line editing and signals; the returned function restores the person's.
func rawMode(t *os.File) func() {
	restore, err := tty.Raw(t)
	if err != nil {
		return func() {}
	}
	return restore
}

func forwardResizes(t, master *os.File) func() {
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-winch:
				if ws := windowSize(t); ws != nil {
					pty.Setsize(master, ws)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(winch); close(done) }
}

// forwardInput copies the person's keys to the command until stopped; a
// read deadline ends the copy so no key typed afterwards is swallowed.
func forwardInput(t, master *os.File) func() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1024)
		for {
			n, err := t.Read(buf)
			if n > 0 {
				master.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return func() {
		if err := t.SetReadDeadline(time.Now()); errors.Is(err, os.ErrNoDeadline) {
			return // not pollable: the reader ends with the terminal
		}
		<-done
		t.SetReadDeadline(time.Time{})
	}
}
