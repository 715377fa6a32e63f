package landlock

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A command can end before wisp hears it has started: its pidfd is then
// readable from the moment wisp holds it. The watch must still say it has
// ended, even when Go's poller saw that readiness before the watch began
// waiting (it forgets it then). Without this, wisp waited forever on a
// command whose helper it stopped.
func TestExitWatchOfAnAlreadyEndedProcess(t *testing.T) {
	for _, reaped := range []bool{false, true} {
		name := map[bool]string{false: "a zombie", true: "reaped"}[reaped]
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("true")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			fd, err := unix.PidfdOpen(cmd.Process.Pid, unix.PIDFD_NONBLOCK)
			if err != nil {
				t.Skipf("no pidfd here: %v", err)
			}
			if reaped {
				_ = cmd.Wait()
			} else {
				t.Cleanup(func() { _ = cmd.Wait() })
				waitForZombie(t, cmd.Process.Pid)
			}
			pidfd := os.NewFile(uintptr(fd), "pidfd") // as readReply does: registered with the poller
			// Idle, the scheduler polls, and the poller records the pidfd as
			// ready before the watch starts.
			time.Sleep(50 * time.Millisecond)
			w := watchPidfd(pidfd)
			defer w.Close()
			select {
			case <-w.ended:
			case <-time.After(20 * time.Second):
				t.Fatal("the watch of a process that had already ended never said it ended")
			}
		})
	}
}

// A process still running is not said to have ended until it has.
func TestExitWatchWaitsForTheEnd(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := watchExit(cmd.Process.Pid)
	defer w.Close()
	time.Sleep(50 * time.Millisecond)
	select {
	case <-w.ended:
		t.Fatal("the watch said a running process had ended")
	default:
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	select {
	case <-w.ended:
	case <-time.After(20 * time.Second):
		t.Fatal("the watch never said the killed process had ended")
	}
}

func waitForZombie(t *testing.T, pid int) {
	t.Helper()
	for range 2000 {
		if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := statFields(data); len(f) > 0 && f[0] == "Z" {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d never became a zombie", pid)
}
