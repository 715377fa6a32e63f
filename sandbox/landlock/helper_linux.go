package landlock

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// HelperMain runs the hidden subcommand `wisp __sandbox-exec` with the words
// after it, and returns an exit status only if it cannot exec the command
// confined: it never runs a command unconfined. It does nothing a confined
// command does not need before the exec (no config, no cobra), because it
// runs before every command.
func HelperMain(args []string) int {
	h, err := parseHelperArgs(args)
	if err != nil {
		return sandbox.HelperFailed(err)
	}
	if err := closeInherited(h.serve); err != nil {
		return sandbox.HelperFailed(err)
	}
	if !h.serve && !h.probe {
		watchEndSignals() // meanwhile, on another thread
	}
	// Never unlocked: the namespace, the capabilities, no_new_privs and the
	// Landlock domain all belong to this thread, which is the one that execs.
	runtime.LockOSThread()
	if err := onFirstThread(); err != nil {
		return sandbox.HelperFailed(err)
	}
	if h.probe {
		return probeNamespace(h)
	}
	code, err := confineAndExec(h)
	if err != nil {
		return sandbox.HelperFailed(err)
	}
	return code
}

// onFirstThread checks that the helper runs on the process's first thread
// (the package's init locked main to it), whose pid is the process's: a
// command signals its helper by that pid, and the kernel checks the signal
// against that thread's Landlock domain. Each thread is confined in a domain
// of its own, so a helper on any other thread would fork its commands into
// a domain from which no signal reaches it, and whether a command can stop
// its helper would depend on which thread Go's scheduler had picked.
func onFirstThread() error {
	if tid, pid := unix.Gettid(), os.Getpid(); tid != pid {
		return fmt.Errorf("the helper runs on thread %d, not its process's first thread %d: "+
			"call sandbox.MaybeHelperMain from main, or TestMain, before anything else", tid, pid)
	}
	return nil
}

// confineAndExec sets up the namespace the protected paths need, applies
// Landlock and execs the command. It returns only on failure, or, in the
// first stage of a user namespace, with the command's status.
func confineAndExec(h helperArgs) (int, error) {
	features, err := kernelFeatures()
	if err != nil {
		return 0, fmt.Errorf("the kernel offers no Landlock (%w), so the command was not run", err)
	}
	if !features.Filesystem {
		return 0, fmt.Errorf("the kernel offers Landlock ABI %d, too old to confine anything, so the command was not run", features.ABI)
	}
	ops := paths.PlanMounts(h.roots, h.protect)
	viewed := wantsNamespace(h, ops)
	guard := features.UnixGuard(h.unixSockets, viewed)
	h.hideSockets = guard == sandbox.UnixHidden
	if viewed {
		if h.ns == sandbox.NamespaceUser || (h.ns == sandbox.NamespaceAuto && os.Geteuid() != 0) {
			return runInUserNamespace(h)
		}
		if err := enterNamespace(h, ops); err != nil {
			return 0, err
		}
		mountOwnProc() // in the helper's PID namespace, if it has one
		if err := enterNetworkNamespace(h, viewed); err != nil {
			return 0, err
		}
	}
	// The bounding and ambient sets act only at an exec, and only this
	// thread execs (or forks the shell): a helper that stays as the
	// command's parent drops them here alone, which saves a stop of every
	// thread per capability at each command's start.
	if err := dropCapabilities(os.Geteuid(), !h.noNetwork, h.serve); err != nil {
		return 0, err
	}
	cfg := landlockConfig(features, !h.noNetwork, guard)
	rules, err := landlockRules(cfg, h, viewed)
	if err != nil {
		return 0, err
	}
	// A helper that execs next leaves only this thread, so confining it
	// is enough. A served helper, or one that stays as the command's
	// parent, lives on with the Go runtime's other threads, and they are
	// confined too: a command shares the helper's domain, and whatever it
	// could make the helper run must be as confined as the command itself.
	if err := restrict(cfg, rules, h.confinesAllThreads()); err != nil {
		return 0, err
	}
	if features.SocketFilter {
		rules := filterRules{networkOff: h.noNetwork, unixOff: guard == sandbox.UnixRefused, noView: !viewed, setID: currentSetIDRule()}
		if err := installFilter(rules, h.confinesAllThreads()); err != nil {
			return 0, err
		}
	}
	if h.serve {
		return serveRequests(os.NewFile(serverFD, "wisp"), h.background)
	}
	if !h.background { // the command's processes end with it
		return superviseCommand(h)
	}
	err = syscall.Exec(h.argv[0], h.argv, os.Environ())
	return 0, fmt.Errorf("run %s: %w", h.argv[0], err)
}

// wantsNamespace says whether the helper makes a mount namespace: always
// when it was told which kind to use (it then gives the command a read-only
// view of everything outside the roots), and, told nothing, when a
// protected path inside a root needs one. --ns none makes none.
func wantsNamespace(h helperArgs, ops []paths.MountOp) bool {
	switch h.ns {
	case sandbox.NamespaceNone, sandbox.NamespaceAuto:
		return len(ops) > 0 // none: refused by enterNamespace, with the reason
	}
	return true
}

// enterNamespace makes the mounts in a namespace: a new one (mount), or
// the one the first stage made (entered).
func enterNamespace(h helperArgs, ops []paths.MountOp) error {
	switch h.ns {
	case sandbox.NamespaceNone:
		return fmt.Errorf("%s lies inside a writable root and must stay unwritable, which needs a mount namespace, and --ns none forbids one", firstReadOnly(ops))
	case sandbox.NamespaceMount, sandbox.NamespaceAuto:
		if err := unshareMounts(); err != nil {
			return err
		}
	case namespaceEntered:
		if inInitialUserNamespace() {
			return errNotEntered
		}
		if err := makeMountsPrivate(); err != nil {
			return err
		}
	case namespaceUnshared:
		if !inOwnMountNamespace() {
			return errNotUnshared
		}
		if err := makeMountsPrivate(); err != nil {
			return err
		}
	}
	if err := bindRoots(h.roots); err != nil {
		return err
	}
	if err := applyMounts(ops); err != nil {
		return err
	}
	if err := coverHidden(h); err != nil {
		return err
	}
	if h.hideSockets {
		if err := hideSockets(h); err != nil {
			return err
		}
	}
	if err := mountPrivateTerminals(); err != nil {
		return err
	}
	if err := readOnlyOutsideRoots(h.roots, h.protect); err != nil {
		return err
	}
	if err := reenterWorkingDirectory(); err != nil {
		return err
	}
	return dropPrivileges(os.Geteuid())
}

// reenterWorkingDirectory enters the working directory again by its path.
// It was entered before the binds, and a walk from it goes through the
// mounts as they were then: when the working directory itself is bound
// (a root that holds the launch folder, as /tmp holds a project in it), a
// relative .git/hooks/pre-commit went around the read-only bind.
func reenterWorkingDirectory() error {
	wd, err := unix.Getwd()
	if err == nil {
		err = unix.Chdir(wd)
	}
	if err != nil {
		return fmt.Errorf("enter the working directory again under the read-only binds: %w", err)
	}
	return nil
}

func firstReadOnly(ops []paths.MountOp) string {
	for _, op := range ops {
		if op.ReadOnly {
			return op.Path
		}
	}
	return ""
}
