//go:build linux || darwin

package sandboxtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// inheritedDescriptorsClosed: a descriptor wisp itself inherited, open on
// a file outside the roots (`wisp mcp 9>>/outside/leak`), never reaches a
// command. Landlock and Seatbelt check a path when it is opened, not
// after, so each backend marks such descriptors close-on-exec before it
// starts a command.
func (s *suite) inheritedDescriptorsClosed(t *testing.T) {
	s.t = t
	leak := filepath.Join(s.outside, "leak")
	release := leaveOpenAcrossExec(t, leak)
	defer release()
	write := fmt.Sprintf("echo leaked >&%d", inheritedFD)
	s.control(write)
	if err := os.Truncate(leak, 0); err != nil {
		t.Fatal(err)
	}
	s.mustFail(s.spec(true), write)
	if got := fileContent(t, leak); got != "" {
		t.Fatalf("a confined command wrote %q outside the roots through an inherited descriptor", got)
	}
}

// inheritedFD is the descriptor the case leaves open across exec, as a
// shell leaves one (its redirections reach 0-9). The suite's modes may run
// side by side in one process, where another goroutine's file could get
// that number and be replaced under it: so HoldInheritedFD keeps it the
// suite's own from the start (on /dev/null, close-on-exec), and the case
// swaps its file in and back out, one mode at a time.
const inheritedFD = 9

var (
	inheritedMu   sync.Mutex
	holdInherited sync.Once
)

// HoldInheritedFD makes descriptor 9 the suite's. Main calls it before any
// test runs; the case calls it too, for a TestMain of another kind.
func HoldInheritedFD() {
	holdInherited.Do(func() { _ = pointAtDevNull(inheritedFD) })
}

// leaveOpenAcrossExec opens path on inheritedFD without close-on-exec, and
// returns what puts the descriptor back.
func leaveOpenAcrossExec(t *testing.T, path string) (release func()) {
	t.Helper()
	HoldInheritedFD()
	inheritedMu.Lock()
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND|unix.O_CLOEXEC, 0o644)
	if err == nil {
		err = unix.Dup2(fd, inheritedFD) // the copy is without close-on-exec
		unix.Close(fd)
	}
	if err != nil {
		inheritedMu.Unlock()
		t.Fatal(err)
	}
	return func() {
		defer inheritedMu.Unlock()
		if err := pointAtDevNull(inheritedFD); err != nil {
			t.Errorf("put descriptor %d back: %v", inheritedFD, err)
		}
	}
}

// pointAtDevNull makes fd /dev/null, close-on-exec.
func pointAtDevNull(fd int) error {
	null, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(null)
	if err := unix.Dup2(null, fd); err != nil {
		return err
	}
	unix.CloseOnExec(fd)
	return nil
}

// fileStat is what a refused chmod, touch or chown would have changed.
type fileStat struct {
	mode  os.FileMode
	mtime time.Time
	uid   uint32
}

func statOf(t *testing.T, path string) fileStat {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return fileStat{mode: info.Mode(), mtime: info.ModTime(), uid: st.Uid}
}
