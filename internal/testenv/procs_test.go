package testenv

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// The listing finds a process by its command line while it runs, and not
// once it has ended and been waited for.
func TestProcessesSeesAProcessComeAndGo(t *testing.T) {
	marker := fmt.Sprintf("wisp-testenv-%d", time.Now().UnixNano())
	cmd := exec.Command("/bin/sh", "-c", "sleep 30; : "+marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := ProcessesWith(t, marker)
	if len(found) != 1 || found[0].PID != cmd.Process.Pid || found[0].Args != "/bin/sh -c sleep 30; : "+marker {
		t.Errorf("ProcessesWith(marker) = %+v, want pid %d, /bin/sh -c ...", found, cmd.Process.Pid)
	}
	if !Running(t, cmd.Process.Pid) {
		t.Error("Running says the shell does not run")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if found := ProcessesWith(t, marker); len(found) != 0 {
		t.Errorf("after the shell ended: %+v", found)
	}
	if Running(t, cmd.Process.Pid) {
		t.Error("Running says the ended shell runs")
	}
}

// A zombie (ended, its parent not yet waiting) does not count as running.
func TestProcessesLeavesOutZombies(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "exit 0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); Running(t, cmd.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the ended, unwaited shell still counts as running after 10s")
		}
	}
}

// ps(1), which the listing uses on a Mac, sees the test process as /proc
// does (run where ps is installed).
func TestPsAgreesWithTheSystemsList(t *testing.T) {
	if _, err := exec.LookPath("ps"); err != nil {
		t.Skip("no ps here")
	}
	fromPs, err := psProcesses()
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	for _, p := range Processes(t) {
		want[p.PID] = p.Args
	}
	for _, p := range fromPs {
		if p.PID == self {
			if p.Args != want[self] {
				t.Errorf("ps says the test runs as %q, the system's list %q", p.Args, want[self])
			}
			return
		}
	}
	t.Errorf("ps did not list the test process %d", self)
}
