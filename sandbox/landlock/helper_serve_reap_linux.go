package landlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// processes are the served helper's commands: it starts them, learns when
// they end, and, unless background processes are allowed, ends what each
// left running before it says the command is done.
//
// Everything that forks or signals runs in serve, on the helper's first
// thread, the one locked to the namespace and confined in the commands'
// own Landlock domain: Landlock confined each thread on its own, and a
// signal from a sibling domain is refused.
type processes struct {
	fd         int  // wisp's socket
	background bool // commandPolicy.sandbox.allowBackground: leave them be
	reaper     reaper

	writeMu sync.Mutex
	// running maps each running command's leader to its request.
	running map[int]uint64
	// sweeping lists the commands said done once the sweep that ends
	// what they left has ended (stopped counts what was left running
	// when the last of them ended); no
	// command starts meanwhile.
	sweeping []startReply
	stopped  int
	kick     chan struct{} // wakes the reaper when a command starts
}

func newProcesses(fd int, background bool) *processes {
	return &processes{fd: fd, background: background, reaper: reaper{init: os.Getpid() == 1},
		running: map[int]uint64{}, kick: make(chan struct{}, 1)}
}

// request is one request read from wisp, or err when wisp is gone.
type request struct {
	req   startRequest
	files []*os.File
	err   error
}

// serve is the served helper's loop: requests from wisp, children reaped,
// and the signal that ends it, until wisp closes its end.
func (p *processes) serve() error {
	ended := make(chan os.Signal, 1)
	if err := p.tie(ended); err != nil {
		return err
	}
	requests, children := p.readRequests(), p.reapChildren()
	p.reply(startReply{Pid: os.Getpid()}) // ready: confined, and serving, as this pid
	for {
		in := requests
		if p.sweeping != nil {
			in = nil // a sweep kills every process: no command may start in it
		}
		select {
		case r := <-in:
			if r.err != nil {
				p.endEverything()
				return nil // wisp is gone (or spoke nonsense): nothing left to serve
			}
			p.start(r.req, r.files)
		case c := <-children:
			p.ended(c)
		case <-ended:
			p.endEverything()
			os.Exit(0)
		}
	}
}

// tie makes the helper the reaper of its commands' processes and ties its
// end to wisp's: in a PID namespace, wisp's end is its SIGKILL (startAttr)
// and the kernel ends every process in it; without one, wisp's end is its
// SIGTERM, on which it ends every command itself.
func (p *processes) tie(ended chan os.Signal) error {
	if p.background {
		return unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0)
	}
	if !p.reaper.init {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("make the served helper the reaper of its commands' processes: %w", err)
		}
	}
	signal.Notify(ended, syscall.SIGTERM, syscall.SIGHUP)
	return nil
}

func (p *processes) readRequests() <-chan request {
	ch := make(chan request)
	go func() {
		// One buffer for every request, not a megabyte made and cleared
		// before each command.
		buf := make([]byte, maxMessage)
		for {
			req, files, err := readRequest(p.fd, buf)
			ch <- request{req, files, err}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// reapChildren reaps every child as it ends (any thread may), and waits
// for a command to start when there is none.
func (p *processes) reapChildren() <-chan reaped {
	ch := make(chan reaped, 16)
	if p.background {
		return ch // each command is waited for alone
	}
	go func() {
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, 0, nil)
			switch {
			case errors.Is(err, syscall.EINTR):
			case err != nil:
				ch <- reaped{none: true}
				<-p.kick
			default:
				ch <- reaped{pid: pid, ws: ws}
			}
		}
	}()
	return ch
}

// reply sends r to wisp, with a pidfd of r.Pid when it names a process.
func (p *processes) reply(r startReply) {
	data, _ := json.Marshal(r)
	var rights []byte
	if r.Pid > 0 {
		if pidfd, err := unix.PidfdOpen(r.Pid, 0); err == nil {
			defer unix.Close(pidfd)
			rights = unix.UnixRights(pidfd)
		}
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	_ = unix.Sendmsg(p.fd, data, rights, nil, 0)
}

// start starts one command and says so, before its end can be handled.
// The helper's copies of the command's streams are closed before wisp is
// told: a command that stops the helper then leaves no pipe held open.
func (p *processes) start(req startRequest, files []*os.File) {
	proc, err := startServed(req, files)
	closeAll(files)
	if err != nil {
		p.reply(startReply{ID: req.ID, Err: err.Error()})
		return
	}
	p.reply(startReply{ID: req.ID, Pid: proc.Pid})
	if p.background {
		go p.waitAlone(req.ID, proc)
		return
	}
	p.running[proc.Pid] = req.ID
	_ = proc.Release() // reaped by reapChildren, with every orphan (and its Pid is -1 after)
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// waitAlone waits for one command when its processes may outlive it.
func (p *processes) waitAlone(id uint64, proc *os.Process) {
	state, _ := proc.Wait()
	status := syscall.WaitStatus(0xff00) // unknown: exit 255
	if state != nil {
		status = state.Sys().(syscall.WaitStatus)
	}
	p.reply(startReply{ID: id, Done: true, Status: uint32(status)})
}

// ended handles what the reaper saw. A command's leader ending has its
// group killed (its & and nohup children) and, when no other command
// runs, begins a sweep: every process left in the helper's care is killed,
// and the command is said to be done once none is left. While others run,
// its orphans cannot be told from theirs: they are ended by the sweep after
// the last of them.
func (p *processes) ended(c reaped) {
	if c.none {
		p.sweepEnded()
		return
	}
	id, ok := p.running[c.pid]
	if ok {
		delete(p.running, c.pid)
		if len(p.running) == 0 && p.sweeping == nil {
			p.stopped = leftRunning()
		}
		_ = syscall.Kill(-c.pid, syscall.SIGKILL)
		done := startReply{ID: id, Done: true, Status: uint32(c.ws)}
		if len(p.running) > 0 {
			p.reply(done)
			return
		}
		p.sweeping = append(p.sweeping, done)
	}
	if p.sweeping != nil {
		p.reaper.signalAll(syscall.SIGKILL)
	}
}

// sweepEnded says the swept commands are done: the helper has no child
// left. (While a sweep runs no command starts, so none comes too early.)
func (p *processes) sweepEnded() {
	for _, done := range p.sweeping {
		done.Stopped = p.stopped
		p.reply(done)
	}
	p.sweeping, p.stopped = nil, 0
}

// endEverything ends every command still running, and what they started,
// before the helper exits: without a PID namespace, nothing else would.
func (p *processes) endEverything() {
	if !p.background {
		p.reaper.signalAll(syscall.SIGKILL)
	}
}
