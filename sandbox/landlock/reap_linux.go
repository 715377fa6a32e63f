package landlock

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// endGrace is how long the helper lets the command end after SIGTERM (a
// time limit, wisp gone) before it kills every process of it. It is
// shorter than the runner's own grace, so that the helper, which can find
// the processes that left the command's group, ends them before wisp
// kills the group and the helper with it.
const endGrace = time.Second

// superviseCommand is the helper's end when background processes are not
// allowed: instead of becoming the command, it starts the shell and stays
// as its parent until the shell has ended, and then ends every process the
// command left, setsid or not, and exits the way the shell did.
//
// Started by wisp as the first process of a PID namespace (getpid is 1),
// it is that namespace's init: the kernel kills every process in it when
// the helper exits, even if the helper itself is killed, and no process
// in it can kill the helper. Elsewhere it is a child subreaper: orphans
// come to it instead of to the system's init, so it can find and kill
// them, but a helper that is killed (by wisp's SIGKILL, or by the command,
// which shares its sandbox) leaves them to run on.
//
// The helper has confined all its threads before it gets here, and is
// undumpable, so that the command, which shares its Landlock domain, can
// neither trace it nor take its descriptors.
func superviseCommand(h helperArgs) (int, error) {
	var report *os.File
	if h.report {
		unix.CloseOnExec(reportFD) // wisp's, not the command's
		report = os.NewFile(reportFD, "report")
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("make the sandbox helper undumpable: %w", err)
	}
	r := reaper{init: os.Getpid() == 1}
	if !r.init {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return 0, fmt.Errorf("make the sandbox helper the reaper of the command's processes: %w", err)
		}
	}
	signals := watchedEndSignals()
	// syscall.ForkExec, not os.StartProcess: the shell is reaped with every
	// orphan by reapChildren, never through an os.Process, and os checks
	// once per process whether pidfds work by forking a child of its own,
	// which the helper would pay for before every command.
	shell, err := syscall.ForkExec(h.argv[0], h.argv, &syscall.ProcAttr{
		Env: os.Environ(), Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		return 0, fmt.Errorf("run %s: %w", h.argv[0], err)
	}
	// The signals stay watched: the helper ends next, and signal.Stop
	// would wait for the runtime's signal thread, 0.17 ms at every command.
	status, stopped := r.supervise(shell, signals, reapChildren())
	writeReport(report, stopped)
	return r.exitAs(status), nil
}

// endSignals are the signals that end a command (SIGTERM, SIGHUP) or that
// the helper must outlive (SIGINT, SIGQUIT), watched by the helper that
// stays as the command's parent or waits for its second stage.
var endSignals = struct {
	once  sync.Once
	ch    chan os.Signal
	ready chan struct{}
}{ch: make(chan os.Signal, 8), ready: make(chan struct{})}

// watchEndSignals starts watching them, on a goroutine of its own, while
// the helper's thread sets up the sandbox: the Go runtime enables each
// signal with a round trip to a thread of its own, 0.4 ms at every command
// when it was done in line. Whatever thread that makes is confined with
// the rest: restrict and installFilter confine every thread the helper
// has, and a thread made after them inherits their confinement.
func watchEndSignals() {
	endSignals.once.Do(func() {
		go func() {
			signal.Notify(endSignals.ch, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
			close(endSignals.ready)
		}()
	})
}

// watchedEndSignals returns them once every one is watched.
func watchedEndSignals() <-chan os.Signal {
	watchEndSignals()
	<-endSignals.ready
	return endSignals.ch
}

// reaper is the helper that stays as the command's parent.
type reaper struct {
	init bool // the first process of the command's PID namespace
}

// reaped is one child the kernel has reaped, or none when none is left.
type reaped struct {
	pid  int
	ws   syscall.WaitStatus
	none bool
}

// reapChildren reaps every child as it ends, on a thread of its own, until
// the helper has none left. Any thread may reap, but only the helper's
// first thread may signal the command: Landlock confined each thread on
// its own, the command shares the first one's domain, and a signal from a
// sibling domain is refused. So the signals are sent by supervise, on the
// locked thread, and the reaping is handed to it.
func reapChildren() <-chan reaped {
	ch := make(chan reaped, 16)
	go func() {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, 0, nil)
			if errors.Is(err, syscall.EINTR) {
				continue
			}
			if err != nil {
				ch <- reaped{none: true}
				return
			}
			ch <- reaped{pid: pid, ws: ws}
		}
	}()
	return ch
}

// supervise waits for the shell, then kills every process the command left
// and waits until none is left; it returns how the shell ended and how
// many were still running when it ended (those that had ended by
// themselves do not count).
//
// SIGTERM and SIGHUP, which end the run (a time limit, wisp gone), are
// passed to every process of the command, and if the shell has not ended
// within endGrace they are all killed. SIGINT and SIGQUIT come from the
// terminal to the whole foreground group, which the shell is in already:
// the helper drops them.
func (r reaper) supervise(shell int, signals <-chan os.Signal, children <-chan reaped) (syscall.WaitStatus, int) {
	status, ending, stopped := syscall.WaitStatus(0xff00), false, 0
	var deadline <-chan time.Time
	for {
		select {
		case s := <-signals:
			if s == syscall.SIGTERM || s == syscall.SIGHUP {
				r.signalAll(s.(syscall.Signal))
				if deadline == nil {
					deadline = time.After(endGrace)
				}
			}
		case <-deadline:
			r.signalAll(syscall.SIGKILL)
		case c := <-children:
			switch {
			case c.none:
				return status, stopped
			case c.pid == shell:
				status, ending, stopped = c.ws, true, leftRunning()
			}
			if ending {
				// As init, one kill(-1) reaches them all, and the kernel
				// lets no fork slip between; as a subreaper, the children
				// of those it kills come to it, and are killed in turn.
				r.signalAll(syscall.SIGKILL)
			}
		}
	}
}

// signalAll sends sig to every process of the command: in a PID namespace
// kill(-1) from its init reaches them all; elsewhere, every descendant.
func (r reaper) signalAll(sig syscall.Signal) {
	if r.init {
		_ = syscall.Kill(-1, sig)
		return
	}
	for _, pid := range descendants("self") {
		if n, err := strconv.Atoi(pid); err == nil {
			_ = syscall.Kill(n, sig)
		}
	}
}

// leftRunning counts the processes below the helper that have not ended:
// what the command left running once its shell has been reaped. It is
// counted before anything is killed, since who reaps a killed process (the
// helper, or its own parent, killed at the same time) is a race.
func leftRunning() int {
	n := 0
	for _, pid := range descendants("self") {
		data, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			continue // ended and reaped meanwhile
		}
		if fields := statFields(data); len(fields) > 0 && fields[0] != "Z" {
			n++ // not a zombie: an ended process not yet reaped
		}
	}
	return n
}

// exitAs ends the helper as the shell ended: with its status, or killed by
// the same signal. An init cannot be killed by its own signal, so it exits
// with 128+N, which wisp reads the same way.
func (r reaper) exitAs(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	if !r.init {
		sig := ws.Signal()
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
	}
	return 128 + int(ws.Signal())
}

// children lists the children of the process /proc/PID names (pid a
// number, or "self": the helper's own, whichever /proc is mounted): every
// thread's, since an orphan comes to whichever thread of a subreaper the
// kernel picks.
func children(pid string) []string {
	// Not filepath.Glob: it would list each task's folder of /proc, which
	// the kernel fills entry by entry, to find the one name it holds.
	dir := "/proc/" + pid + "/task"
	tasks, _ := os.ReadDir(dir)
	var out []string
	for _, t := range tasks {
		data, err := readProc(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if _, err := strconv.Atoi(f); err == nil {
				out = append(out, f)
			}
		}
	}
	return out
}

// descendants lists every process below pid, children first.
func descendants(pid string) []string {
	var out []string
	queue := children(pid)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, p)
		queue = append(queue, children(p)...)
	}
	return out
}

// writeReport tells wisp how many processes the command left running, on
// the descriptor it passed for that.
func writeReport(f *os.File, stopped int) {
	if f == nil {
		return
	}
	fmt.Fprintf(f, "stopped %d\n", stopped)
	f.Close()
}

// mountOwnProc mounts a /proc of the helper's own PID namespace over the
// system's, in the mount namespace the helper has just made, when it is
// that namespace's first process: then a command's $$ and /proc/self
// agree, it lists only its own processes, and it cannot read wisp's
// /proc/PID/environ. Where the kernel refuses (a /proc partly hidden by a
// container), the system's stays: pids the command reads there are not the
// ones it signals, which only confuses it.
func mountOwnProc() {
	if os.Getpid() != 1 {
		return
	}
	_ = unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
}

// parentPid is the helper's parent as the system's /proc names it:
// getppid says 0 in a PID namespace whose parent lies outside it, and
// /proc, until mountOwnProc, is still the system's.
func parentPid() int {
	data, err := os.ReadFile("/proc/self/stat")
	if fields := statFields(data); err == nil && len(fields) > 1 {
		if n, err := strconv.Atoi(fields[1]); err == nil {
			return n
		}
	}
	return os.Getppid()
}

// readProc reads a /proc file whole with plain system calls: os.ReadFile
// registers each descriptor with the runtime's poller and takes it off
// again, and the helper reads one file a thread after every command.
func readProc(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return out, nil
		}
		out = append(out, buf[:n]...)
	}
}
