package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// crashEnv asks the test binary, run as a child, to restore and to be
// killed at a step: "step:n:store:project:target:keep" (keep: one path
// the restore keeps, or none).
const crashEnv = "WISP_CHECKPOINT_CRASH"

func TestMain(m *testing.M) {
	if spec := os.Getenv(crashEnv); spec != "" {
		crashingRestore(spec) // does not return
	}
	code := m.Run()
	removeBenchDirs()
	os.Exit(code)
}

// crashingRestore is the child that a crash test kills: it restores, and
// SIGKILLs itself right after the step it was told.
func crashingRestore(spec string) {
	f := strings.SplitN(spec, ":", 6)
	n, _ := strconv.Atoi(f[1])
	id, _ := strconv.Atoi(f[4])
	s, err := Open(f[2], Options{})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	s.hook = func(step string, i int) {
		if step == f[0] && i == n {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	target, err := s.Get(id)
	if err == nil {
		var keep []string
		if f[5] != "" {
			keep = []string{f[5]}
		}
		_, err = s.Restore(target, RestoreOptions{Keep: keep})
	}
	fmt.Printf("the restore was not killed at %s %d: %v\n", f[0], n, err)
	os.Exit(1)
}

// crashAt runs a restore of p to target in a child process killed at
// step n, checks that it was, midway (it left temporary files), and
// returns the project's state then, but for those files.
func crashAt(t *testing.T, p *project, target *Checkpoint, step string, n int, keep string) map[string]string {
	t.Helper()
	p.store.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%d:%s:%s:%d:%s", crashEnv, step, n, Dir(p.home, p.dir), p.dir, target.ID, keep))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the restoring child was not killed: %v\n%s", err, out)
	}
	mid := snapshot(t, p.dir)
	if withoutTemps(mid) == 0 {
		t.Errorf("no temporary file left: the restore was not killed midway through %s", step)
	}
	return mid
}

// twoStates makes a project, a checkpoint of it, and a turn that changes
// many files, and returns both states and the checkpoint.
func twoStates(t *testing.T) (p *project, before, after map[string]string, cp *Checkpoint) {
	p = newProject(t, Options{})
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("d%d/f%d.txt", i%3, i)] = fmt.Sprintf("before %d\n", i)
	}
	files["gone/x.txt"] = "removed by the turn\n"
	p.write(files)
	before = snapshot(t, p.dir)
	cp = p.take("before")
	for i := range 12 {
		files[fmt.Sprintf("d%d/f%d.txt", i%3, i)] = strings.Repeat(fmt.Sprintf("after %d\n", i), 1000)
	}
	files["new/y.txt"] = "added by the turn\n"
	delete(files, "gone/x.txt")
	os.RemoveAll(p.path("gone"))
	p.write(files)
	return p, before, snapshot(t, p.dir), cp
}

// withoutTemps drops a restore's temporary files from a snapshot, and
// says how many there were.
func withoutTemps(state map[string]string) int {
	n := 0
	for k := range state {
		if strings.Contains(k, ".wisp-restore-") {
			delete(state, k)
			n++
		}
	}
	return n
}

func TestARestoreKilledMidwayIsFinishedByTheNextOpen(t *testing.T) {
	p, before, after, cp := twoStates(t)
	kept := p.path("d1/f4.txt")
	mid := crashAt(t, p, cp, "rename", 5, kept)
	// Each file is whole: as before the restore, or as in the checkpoint.
	olds, news := 0, 0
	for k, v := range mid {
		switch v {
		case after[k]:
			olds++
		case before[k]:
			news++
		default:
			t.Errorf("%s is neither old nor new: %s", k, v)
		}
	}
	if olds == 0 || news == 0 {
		t.Errorf("%d files old and %d new: not midway", olds, news)
	}
	if _, err := os.Stat(p.store.journalPath()); err != nil {
		t.Fatalf("no journal after the crash: %v", err)
	}

	p.open(Options{})
	rec := p.store.Recovered()
	if rec == nil || !rec.Finished || rec.Target != cp.ID {
		t.Fatalf("Recovered() = %+v, want the restore to %d finished", rec, cp.ID)
	}
	before["d1/f4.txt"] = after["d1/f4.txt"] // kept, by the restore and by its finish
	sameTree(t, "the project once the restore is finished", before, snapshot(t, p.dir))
	redo, err := p.store.Get(rec.Redo)
	if err != nil {
		t.Fatal(err)
	}
	p.restore(redo, RestoreOptions{})
	sameTree(t, "the project after the redo", after, snapshot(t, p.dir))
}

func TestARestoreKilledWhilePreparingIsRolledBack(t *testing.T) {
	p, _, after, cp := twoStates(t)
	mid := crashAt(t, p, cp, "temp", 3, "")
	sameTree(t, "the project while the restore was preparing", after, mid)

	p.open(Options{})
	if rec := p.store.Recovered(); rec == nil || rec.Finished {
		t.Fatalf("Recovered() = %+v, want a roll back", rec)
	}
	sameTree(t, "the project after the roll back", after, snapshot(t, p.dir))
	if _, err := os.Stat(p.store.journalPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the journal after the roll back: %v", err)
	}
}
