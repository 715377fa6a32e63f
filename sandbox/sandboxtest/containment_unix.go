//go:build linux || darwin

package sandboxtest

import (
	"fmt"
	"os"
	"path/filepath"
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
	fd, err := unix.Open(leak, unix.O_WRONLY|unix.O_CREAT|unix.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	const inherited = 9            // the shell's redirections reach 0-9
	err = unix.Dup2(fd, inherited) // without close-on-exec, as a shell leaves it
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(inherited)
	write := fmt.Sprintf("echo leaked >&%d", inherited)
	s.control(write)
	if err := os.Truncate(leak, 0); err != nil {
		t.Fatal(err)
	}
	s.mustFail(s.spec(true), write)
	if got := fileContent(t, leak); got != "" {
		t.Fatalf("a confined command wrote %q outside the roots through an inherited descriptor", got)
	}
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
