package landlock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
	"golang.org/x/sys/unix"
)

// helperClient is wisp's side of the served helper (Server): the socket
// to it and the commands it has started and not yet said are done.
type helperClient struct {
	conn   *os.File // wisp's end of the socket
	cmd    *exec.Cmd
	nextID atomic.Uint64
	// servingPid is the process that starts the commands, their parent.
	servingPid int
	// ownPids is set when the helper numbers processes as wisp does (no
	// PID namespace of its own): only then is a pid it names without a
	// pidfd one wisp can read or signal.
	ownPids bool
	flags   []string // the confinement: the helper's flags, as Command would give them
	// readView digests the folders on the way to the unreadable paths (the
	// secrets, wisp's home outside the roots), as they were when the helper
	// made its rules (a command's own helper makes them afresh, so Command
	// leaves it out).
	unreadable []string
	readView   string
	// sockets digests the Unix sockets bound when the helper hid them
	// (socketsView), or "" where it hides none.
	sockets string

	mu      sync.Mutex
	pending map[uint64]chan startReply
	dead    error // set once the helper is gone
	done    chan struct{}
	// readerDone is closed when readReplies has returned: only then may the
	// socket be closed (done can close before, when the helper is ended).
	readerDone chan struct{}
}

// ErrServerGone is wrapped when the served helper has exited, or was ended
// because it stopped answering.
var ErrServerGone = errors.New("the served sandbox helper is gone")

// A command shares its Landlock domain with the helper's serving thread,
// so it can signal it: a SIGSTOP (kill -STOP $PPID) would leave wisp waiting
// for answers that never come. These bound the waits on a live helper; one
// that misses them is ended, and every run waiting on it learns it is gone.
var (
	// startReplyTimeout bounds the wait for "started": the helper forks
	// and replies at once.
	startReplyTimeout = 10 * time.Second
	// doneReplyGrace bounds the wait for a command's status once the
	// kernel says the command has ended.
	doneReplyGrace = 2 * time.Second
	// stopCheckEvery is how often a late answer makes wisp look whether
	// the helper is stopped, which ends it at once.
	stopCheckEvery = 200 * time.Millisecond
)

// Serve starts a served helper for spec: the helper with the flags a single
// command would get, plus --serve. It returns once the helper has
// confined itself, or with the helper's own reason it could not.
func (l *Landlock) Serve(spec sandbox.Spec) (sandbox.Server, error) {
	h, err := l.helperArgs(spec, "")
	if err != nil {
		return nil, err
	}
	// Its rules are made once, at its start: the folders on the way to the
	// secrets are digested, for Serves to tell when they have changed. It
	// starts with the commands' filtered environment (a command's own
	// helper gets it from whoever starts it: the runner, with envFor).
	hidden := unreadable(spec.DenyRead, spec.Hidden, spec.Roots)
	h.serve, h.argv, h.readView = true, []string{sandbox.Shell}, readView(hidden)
	// Listed before the helper lists them itself: a socket bound in
	// between is hidden but changes the digest (a new helper, for
	// nothing), never the other way round.
	sockets := ""
	if len(h.socketHomes) > 0 {
		sockets = socketsView()
	}
	h.env = spec.CommandEnv(os.Environ())
	// Made at the clone, the namespaces are every thread's; an unshare in
	// the helper would be only its calling thread's.
	attr := startAttr(&h)
	attr.Setpgid = true // out of wisp's group: a Ctrl-C is for the command, not the helper
	if attr.Pdeathsig == 0 {
		attr.Pdeathsig = syscall.SIGKILL // background allowed: nothing to end but itself
	}
	s, err := startServer(l.helper, h, attr)
	if err != nil {
		return nil, err
	}
	s.unreadable, s.readView, s.sockets = hidden, h.readView, sockets
	h.serve, h.argv, h.readView = false, nil, ""
	switch h.ns { // the flags a single command's helper gets, to compare with
	case namespaceEntered:
		h.ns = sandbox.NamespaceUser
	case namespaceUnshared:
		h.ns = sandbox.NamespaceMount
	}
	s.flags = h.encode()
	return s, nil
}

// Serves reports whether s confines commands exactly as argv, from
// Command, would: the same roots, the same protected paths bound (which
// depends on what exists now), the same network and namespace, and the
// same entries on the way to each secret (which it lists again now), and,
// where it hides the person's Unix sockets, the same sockets bound.
func (s *helperClient) Serves(argv []string) bool {
	i := slices.Index(argv, "--")
	if i <= 0 {
		return false
	}
	flags := slices.Clone(argv[1 : i+1])
	for j := range flags { // CommandAttr's namespaces made at the clone are the same confinement
		if j > 0 && flags[j-1] == "--ns" && flags[j] == string(namespaceEntered) {
			flags[j] = string(sandbox.NamespaceUser)
		}
		if j > 0 && flags[j-1] == "--ns" && flags[j] == string(namespaceUnshared) {
			flags[j] = string(sandbox.NamespaceMount)
		}
	}
	return slices.Equal(flags, s.flags) && readView(s.unreadable) == s.readView &&
		(s.sockets == "" || socketsView() == s.sockets)
}

func startServer(exe string, h helperArgs, attr *syscall.SysProcAttr) (*helperClient, error) {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("make the served helper's socket: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(pair[0]), "wisp"), os.NewFile(uintptr(pair[1]), "helper")
	var stderr bytes.Buffer
	cmd := exec.Command(exe, h.encode()...)
	cmd.ExtraFiles, cmd.Stderr, cmd.SysProcAttr = []*os.File{theirs}, &stderr, attr
	cmd.Env = h.env // the commands' own, filtered: they can read the helper's /proc/PID/environ
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, fmt.Errorf("start the served sandbox helper: %w", err)
	}
	s := &helperClient{conn: ours, cmd: cmd, pending: map[uint64]chan startReply{}, done: make(chan struct{}),
		readerDone: make(chan struct{})}
	if err := s.awaitReady(&stderr); err != nil {
		return nil, err
	}
	go s.readReplies()
	return s, nil
}

// awaitReady reads the helper's first message, which it sends once
// confined; anything else is its failure, said on its stderr.
func (s *helperClient) awaitReady(stderr *bytes.Buffer) error {
	r, err := s.readReply()
	if err == nil && r.ID == 0 && r.Err == "" && r.Pid > 0 {
		// the helper itself, or its second stage in a user namespace, as
		// wisp sees it: in its own PID namespace it is 1 to itself
		s.servingPid = r.hostPid()
		s.ownPids = r.Pid == s.servingPid
		r.close()
		if s.servingPid > 0 {
			return nil
		}
	}
	s.conn.Close()
	_ = s.cmd.Wait()
	why := strings.TrimSpace(strings.TrimPrefix(stderr.String(), "wisp: error: sandbox: "))
	if why == "" {
		why = fmt.Sprintf("it ended with %v", s.cmd.ProcessState)
	}
	return fmt.Errorf("%w: %s", ErrServerGone, why)
}

func (s *helperClient) readReply() (startReply, error) {
	var r startReply
	buf := make([]byte, 4096)
	oob := make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(int(s.conn.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return r, err
	}
	if n == 0 {
		return r, ErrServerGone
	}
	if fds := passedFDs(oob[:oobn]); len(fds) > 0 {
		// Non-blocking before os.NewFile, so that the file is pollable
		// (watchPidfd waits on it).
		_ = unix.SetNonblock(fds[0], true)
		r.pidfd, r.pidfdNum = os.NewFile(uintptr(fds[0]), "pidfd"), fds[0]
		for _, fd := range fds[1:] {
			unix.Close(fd)
		}
	}
	return r, json.Unmarshal(buf[:n], &r)
}

// hostPid is the pid the reply names, as wisp sees it: the pidfd that came
// with it says which process it is, whatever PID namespace it is in. It is
// 0 when that process has already been reaped (the command has ended),
// and r.Pid itself when no pidfd came.
func (r startReply) hostPid() int {
	if r.pidfd == nil {
		return r.Pid
	}
	return pidfdPid(r.pidfdNum) // not Fd(), which would make it blocking again
}

func (r startReply) close() {
	if r.pidfd != nil {
		r.pidfd.Close()
	}
}

// readReplies hands each reply to the request waiting for it, until the
// helper goes; then every waiter learns it is gone.
func (s *helperClient) readReplies() {
	defer close(s.readerDone)
	for {
		r, err := s.readReply()
		if err != nil {
			s.fail(err)
			return
		}
		s.mu.Lock()
		ch := s.pending[r.ID]
		if r.Done || r.Err != "" {
			delete(s.pending, r.ID)
		}
		s.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
}

func (s *helperClient) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead == nil {
		s.dead = fmt.Errorf("%w: %v", ErrServerGone, err)
		close(s.done)
	}
	s.pending = map[uint64]chan startReply{}
}

// Start starts one command confined; wait returns its wait status once it
// has ended. The command's process group (or session) id is pid, as wisp
// sees it; 0 when the command has already ended and been reaped, when
// there is no group left to signal.
func (s *helperClient) Start(req sandbox.ServeRequest) (pid int, wait func() (syscall.WaitStatus, error), err error) {
	if len(req.Argv) == 0 {
		return 0, nil, errors.New("no command to start")
	}
	id := s.nextID.Add(1)
	ch := make(chan startReply, 2)
	s.mu.Lock()
	if s.dead != nil {
		s.mu.Unlock()
		return 0, nil, fmt.Errorf("%w: %w", sandbox.ErrNotStarted, s.dead)
	}
	s.pending[id] = ch
	s.mu.Unlock()
	if err := s.send(id, req); err != nil {
		s.forget(id)
		return 0, nil, fmt.Errorf("%w: %w", sandbox.ErrNotStarted, err)
	}
	first, err := s.awaitStart(ch)
	if err != nil {
		return 0, nil, err
	}
	pid = first.hostPid()
	if first.pidfd == nil && !s.ownPids {
		// The helper could open no pidfd: the command had already ended
		// and been reaped, and the pid it names is its namespace's, which
		// on this side may be any other process.
		pid = 0
	}
	switch {
	case first.Err != "":
		first.close()
		return 0, nil, fmt.Errorf("%w: start %s confined: %s", sandbox.ErrNotStarted, req.Argv[0], first.Err)
	case pid != 0 && !s.isOwnLeader(pid):
		first.close()
		return 0, nil, fmt.Errorf("%w: it named pid %d, not a group leader it started", ErrServerGone, pid)
	}
	exited := watchStarted(first)
	return pid, func() (syscall.WaitStatus, error) {
		defer exited.Close()
		r, err := s.awaitDone(ch, exited.ended)
		if req.Stopped != nil {
			*req.Stopped = r.Stopped
		}
		return syscall.WaitStatus(r.Status), err
	}, nil
}

// watchStarted watches the command a "started" reply names, by its pidfd
// when one came (no pid that could be reused meanwhile), by its pid when not.
func watchStarted(r startReply) *exitWatch {
	if r.pidfd != nil {
		return watchPidfd(r.pidfd)
	}
	return watchExit(r.Pid)
}

// awaitStart waits for the helper's "started" or its failure to start.
func (s *helperClient) awaitStart(ch chan startReply) (startReply, error) {
	if r, ok := s.awaitReply(ch, startReplyTimeout); ok {
		return r, nil
	}
	return s.await(ch)
}

// awaitReply waits up to limit for a reply on ch, or for the helper's end;
// ok is false when it had to end a helper that was stopped or silent.
func (s *helperClient) awaitReply(ch chan startReply, limit time.Duration) (startReply, bool) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	check := time.NewTicker(stopCheckEvery)
	defer check.Stop()
	for {
		select {
		case r := <-ch:
			return r, true
		case <-s.done:
			r, err := s.await(ch)
			return r, err == nil
		case <-check.C:
			if !s.stopped() {
				continue
			}
			s.end(errors.New("a command stopped it (they share the sandbox, so a command can signal it)"))
		case <-deadline.C:
			s.end(fmt.Errorf("it did not answer within %v", limit))
		}
		return startReply{}, false
	}
}

// stopped reports whether the serving process is stopped (state T, or t
// when traced).
func (s *helperClient) stopped() bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.servingPid))
	if err != nil {
		return false
	}
	fields := statFields(data)
	return len(fields) > 0 && (fields[0] == "T" || fields[0] == "t")
}

// statFields are the fields of /proc/PID/stat after "pid (comm)": state,
// ppid, pgrp, and on. comm may hold spaces and parentheses, so they start
// after its last ')'.
func statFields(stat []byte) []string {
	return strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
}

// awaitDone waits for the command's status; once the command has ended
// (ended is closed), the helper has doneReplyGrace to say it.
func (s *helperClient) awaitDone(ch chan startReply, ended <-chan struct{}) (startReply, error) {
	select {
	case r := <-ch:
		return r, nil
	case <-s.done:
		return s.await(ch)
	case <-ended:
	}
	if r, ok := s.awaitReply(ch, doneReplyGrace); ok {
		return r, nil
	}
	return s.await(ch)
}

// end kills a helper that stopped answering (a stopped process dies of
// SIGKILL too) and fails every request waiting on it. In a user namespace
// the serving process is the helper's child, and is killed as well.
func (s *helperClient) end(why error) {
	if s.servingPid > 0 && s.servingPid != s.cmd.Process.Pid {
		_ = syscall.Kill(s.servingPid, syscall.SIGKILL)
	}
	_ = s.cmd.Process.Kill()
	s.fail(why)
}

func (s *helperClient) send(id uint64, req sandbox.ServeRequest) error {
	data, err := json.Marshal(startRequest{ID: id, Argv: req.Argv, Dir: req.Dir, Env: req.Env, Session: req.Session})
	if err != nil {
		return err
	}
	rights := unix.UnixRights(int(req.Stdin.Fd()), int(req.Stdout.Fd()), int(req.Stderr.Fd()))
	if err := unix.Sendmsg(int(s.conn.Fd()), data, rights, nil, 0); err != nil {
		return fmt.Errorf("%w: %v", ErrServerGone, err)
	}
	return nil
}

func (s *helperClient) await(ch chan startReply) (startReply, error) {
	select {
	case r := <-ch:
		return r, nil
	case <-s.done:
	}
	select { // a reply that came just before the end still counts
	case r := <-ch:
		return r, nil
	default:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return startReply{}, s.dead
}

// isOwnLeader checks a pid the helper names before wisp ever signals its
// group: it must be the helper's child and lead its own group or session,
// so that a reply forged from inside cannot aim wisp at another process.
// A pid already gone passes: the command ended and was reaped, and there
// is no group left to signal.
func (s *helperClient) isOwnLeader(pid int) bool {
	if pid <= 0 {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) { // reaped, even mid-read
		return true
	}
	return err == nil && ownLeader(data, s.servingPid, pid)
}

// ownLeader reads /proc/PID/stat. A command being reaped as it is
// read shows a dead state with parent 0 and group 0, or -1 once its group
// is unhashed too (the kernel has already let go of it); that too is a
// command gone. No live process shows a dead state, so a forged pid
// cannot pass as one.
func ownLeader(stat []byte, servingPid, pid int) bool {
	fields := statFields(stat)
	if len(fields) < 3 {
		return false
	}
	state, ppid, pgrp := fields[0], fields[1], fields[2]
	if (state == "Z" || state == "X") && ppid == "0" && (pgrp == "0" || pgrp == "-1") {
		return true
	}
	return ppid == strconv.Itoa(servingPid) && pgrp == strconv.Itoa(pid)
}

func (s *helperClient) forget(id uint64) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// Close ends the helper: it exits when its socket closes, or is killed if
// it has not shortly (a stopped helper never would). Commands it started
// that still run end with it, and so does what they started (unless
// background processes are allowed): their runs end here too, since wisp
// can no longer learn how they ended.
func (s *helperClient) Close() error {
	// shutdown, not just close: it wakes the reader blocked on the socket
	// and tells the helper at once.
	_ = unix.Shutdown(int(s.conn.Fd()), unix.SHUT_RDWR)
	<-s.readerDone
	err := s.conn.Close()
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(doneReplyGrace):
		s.end(errors.New("it did not exit when closed"))
		<-exited
	}
	return err
}
