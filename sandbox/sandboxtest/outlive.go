package sandboxtest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A daemon that outlives the command is how a confined command plants a
// hook after the run: it waits for the person's `git init` and writes
// .git/hooks then. Each daemon below holds a lock (flock) on a file, which
// the kernel releases when the last of its processes has ended, so the
// test sees from outside, without waiting on a clock, whether any of it
// is left once the command's run has returned. It writes "up" (its pids)
// only once the lock is held, and the command waits for that.
var outliving = []struct {
	name, start string
}{
	{"Setsid", "setsid flock LOCK sh -c 'echo $PPID $$ > UP; exec sleep 1000'"},
	{"DoubleFork", "( flock LOCK sh -c 'echo $PPID $$ > UP; exec sleep 1000' & )"},
	{"Nohup", "nohup flock LOCK sh -c 'echo $PPID $$ > UP; exec sleep 1000'"},
	{"IgnoresTerm", "setsid sh -c 'trap \"\" TERM HUP; exec flock LOCK sh -c \"echo \\$PPID \\$\\$ > UP; exec sleep 1000\"'"},
}

// outlive: every way a command can leave a process behind ends when the
// command's run returns. Each is run unconfined first, where the daemon
// survives (the control, so the case can fail), and is then killed.
func (s *suite) outlive(t *testing.T) {
	if s.o.NoProcessContainment {
		t.Skip("the backend reports that a process leaving the command's group outlives the run (docs/trust.md)")
	}
	for _, c := range outliving {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			lock, up := filepath.Join(s.proj, "outlive-"+c.name+".lock"), filepath.Join(s.proj, "outlive-"+c.name+".up")
			line := daemonLine(c.start, lock, up)
			s.plain(line)
			pids := readPids(t, up)
			if !lockHeld(t, lock) {
				t.Fatalf("control: unconfined, the daemon of %q is gone when the command returns, so the case proves nothing", line)
			}
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			waitLockFree(t, lock)
			os.Remove(up)
			s.mustSucceed(s.spec(true), line)
			if lockHeld(t, lock) {
				t.Fatalf("confined, a process of %q outlived the command's run", line)
			}
		})
	}
}

// daemonLine starts the daemon in the background, its streams away from
// the command's (which the caller waits on), and waits until it holds the
// lock.
func daemonLine(start, lock, up string) string {
	// Unquoted: the one in IgnoresTerm is inside quotes already, and the
	// scratch folders' names need none.
	start = strings.NewReplacer("LOCK", lock, "UP", up).Replace(start)
	return start + " </dev/null >/dev/null 2>&1 & " +
		"while [ ! -s " + shellQuote(up) + " ]; do sleep 0.01; done"
}

func readPids(t *testing.T, up string) []int {
	t.Helper()
	var pids []int
	for _, f := range strings.Fields(fileContent(t, up)) {
		if n, err := strconv.Atoi(f); err == nil && n > 1 {
			pids = append(pids, n)
		}
	}
	return pids
}

// lockHeld reports whether some process holds the lock on path.
func lockHeld(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the daemon's lock file: %v", err)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	if err != nil {
		t.Fatalf("try the daemon's lock: %v", err)
	}
	return false
}

// waitLockFree blocks until the killed control daemon has let go (the
// test's own time limit bounds it).
func waitLockFree(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
}
