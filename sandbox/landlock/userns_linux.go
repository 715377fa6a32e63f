package landlock

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// runInUserNamespace is the first stage of NamespaceUser. A Go program is
// multithreaded, and the kernel lets only a single-threaded process
// unshare a user namespace, so the helper starts itself again (the second
// stage, namespaceEntered) in a new user and mount namespace, with its own
// uid and gid mapped to themselves and CAP_SYS_ADMIN kept across the exec
// as an ambient capability for the mounts. This stage waits and passes on
// how the command ended. It is not confined, and the command cannot signal
// it: Landlock's scoping keeps signals inside the sandbox.
func runInUserNamespace(h helperArgs) (int, error) {
	h.ns = namespaceEntered
	attr := userNamespaceAttr()
	attr.Pdeathsig = syscall.SIGKILL // tied to this (locked) thread: if the helper dies, so does the command
	if !h.background {
		// The second stage is the first process of a PID namespace: when
		// it ends, so does every process the command started.
		attr.Cloneflags |= syscall.CLONE_NEWPID
	}
	// And this stage dies with whoever started it, wisp: it is only a
	// waiter, and a command must not outlive wisp either.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		return 0, fmt.Errorf("tie the sandbox helper to wisp: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe", // this very binary, whatever its path has become since
		Args:        append([]string{os.Args[0]}, h.encode()...),
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		SysProcAttr: attr,
	}
	if h.serve { // the second stage serves: pass it wisp's end of the socket
		cmd.ExtraFiles = []*os.File{os.NewFile(serverFD, "wisp")}
	}
	signals := watchedEndSignals()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start the command in a user namespace: %w", err)
	}
	go forwardSignals(signals, cmd.Process)
	_ = cmd.Wait()
	return passOn(cmd.ProcessState), nil
}

// forwardSignals passes SIGTERM and SIGHUP, which are often sent to one
// pid, to the command. SIGINT and SIGQUIT come from the terminal to the
// whole process group, which the command is in already: passing them on
// would deliver them twice. This stage only waits, so it ignores them all.
func forwardSignals(signals <-chan os.Signal, p *os.Process) {
	for s := range signals {
		if s == syscall.SIGTERM || s == syscall.SIGHUP {
			_ = p.Signal(s)
		}
	}
}

// passOn ends this stage the way the command ended: with its exit status,
// or killed by the same signal.
func passOn(state *os.ProcessState) int {
	status, ok := state.Sys().(syscall.WaitStatus)
	if !ok || !status.Signaled() {
		return state.ExitCode()
	}
	sig := status.Signal()
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	return 128 + int(sig)
}

// userNamespaceAttr starts a process in a new user and mount namespace with
// the caller's uid and gid mapped to themselves, holding CAP_SYS_ADMIN there
// across the exec (as an ambient capability) to make its mounts.
func userNamespaceAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}},
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN}, // the mounts; the network namespace's loopback (netns_linux.go)
	}
}

// errNotEntered refuses --ns entered outside a fresh user namespace, where
// its mounts would land in the person's own mount namespace.
var errNotEntered = errors.New("--ns entered is for the helper's second stage, inside the user namespace its first stage made")

// inInitialUserNamespace reports whether this process's user namespace is
// the system's first one, whose uid_map maps every uid.
func inInitialUserNamespace() bool {
	data, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return true // fail closed: treat it as the first
	}
	return strings.Join(strings.Fields(string(data)), " ") == "0 0 4294967295"
}
