package tty

import (
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

func TestRawSizeAndDeadlines(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	pty.Setsize(master, &pty.Winsize{Rows: 33, Cols: 111})
	if w, h, err := Size(tty); err != nil || w != 111 || h != 33 {
		t.Errorf("Size = %d×%d, %v; want 111×33", w, h, err)
	}
	restore, err := Raw(tty)
	if err != nil {
		t.Fatal(err)
	}
	var st *term.State
	Control(tty, func(fd int) { st, _ = term.GetState(fd) })
	restore()
	// Raw must not have made the file blocking: a read deadline still
	// stops a read that nothing will answer.
	tty.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	done := make(chan error)
	go func() {
		_, err := tty.Read(make([]byte, 1))
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a read with nothing typed returned data")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read deadline did not stop the read: the file became blocking")
	}
	if st == nil {
		t.Error("no terminal state read through Control")
	}
}
