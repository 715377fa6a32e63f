package sandbox

import (
	"errors"
	"fmt"
	"syscall"
)

// Backend confines one command line to a Spec on one system.
type Backend interface {
	// Name says which mechanism it is: "landlock" or "seatbelt".
	Name() string
	// Check says what the backend will enforce of spec here: spec with the
	// protected paths it cannot cover listed in Unprotected, or an error
	// when it cannot confine spec safely at all (wisp's home inside a root
	// with no way to keep it unwritable). Command checks too.
	Check(spec Spec) (Spec, error)
	// Command returns the argv that runs `/bin/sh -c line` confined to spec.
	// The command's environment and working directory are the caller's.
	Command(spec Spec, line string) ([]string, error)
}

// AttrCommander is implemented by a backend that can do less per command
// when the caller starts the process with attributes of its own: the
// Landlock helper, which otherwise starts itself again to enter a user
// namespace. The caller may set fields of its own on the returned attr
// (Setpgid, say) but must keep the ones it holds; a nil attr needs nothing.
type AttrCommander interface {
	CommandAttr(spec Spec, line string) ([]string, *syscall.SysProcAttr, error)
}

// ProbeCacher is implemented by a backend whose probe of the system (the
// Landlock helper's namespace probe, a process start of its own) can be
// remembered in a file in wisp's home across wisp's processes.
type ProbeCacher interface{ CacheProbeIn(file string) }

// SeatbeltExec is macOS's sandbox-exec, which applies a Seatbelt profile
// (sandbox/seatbelt writes them).
const SeatbeltExec = "/usr/bin/sandbox-exec"

// detectors are the backends' Detect functions, registered by the packages
// that hold them (Register).
var detectors []func(exe string) (Backend, error)

// Register adds a backend's Detect, from the init of the backend's package
// (sandbox/seatbelt): the front needs no import of its backends.
func Register(detect func(exe string) (Backend, error)) {
	detectors = append(detectors, detect)
}

// Gapper is a backend that names what it does not refuse, for the report.
type Gapper interface{ Gaps(Spec) []string }

// Shell is the shell every command line runs in, confined or not.
const Shell = "/bin/sh"

// Plain returns the argv that runs line unconfined.
func Plain(line string) []string { return []string{Shell, "-c", line} }

// ErrUnavailable is what Detect's error wraps when this system offers no
// kernel sandbox. Callers fail closed on it.
var ErrUnavailable = errors.New("no kernel sandbox is available")

// ErrUnsupportedOS is wrapped (with ErrUnavailable) on a system wisp has no
// sandbox backend for.
var ErrUnsupportedOS = errors.New("wisp has no kernel sandbox for this operating system")

// UnavailableError says why there is no sandbox and what to do.
type UnavailableError struct {
	Why string // what is missing, as a lowercase phrase
	Fix string // what the person can do about it
	Err error  // the underlying error, if any
}

func (e *UnavailableError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("no kernel sandbox: %s: %v", e.Why, e.Err)
	}
	return "no kernel sandbox: " + e.Why
}

// Unwrap lets errors.Is find ErrUnavailable and the cause.
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Hint says what to do: the fix, and the way to run unconfined on purpose.
func (e *UnavailableError) Hint() string {
	off := "or, to run commands unconfined on purpose, set commandPolicy.sandbox.enabled to false or pass --unsafe"
	if e.Fix == "" {
		return off
	}
	return e.Fix + "; " + off
}

// UnprotectableError refuses a spec whose root holds something that must
// never be writable (wisp's home, the wisp binary the helper runs) when the
// backend cannot keep it so here.
type UnprotectableError struct {
	Path string // the protected path
	What string // "wisp's home", "the wisp executable"
	Root string // the root it lies in
	Why  string // why it cannot be covered
}

func (e *UnprotectableError) Error() string {
	return fmt.Sprintf("sandbox: %s %s lies inside the writable root %s, and %s", e.What, e.Path, e.Root, e.Why)
}

// Hint says how to move out of the way.
func (e *UnprotectableError) Hint() string {
	if e.What == WhatExecutable {
		return "install wisp outside the writable roots (go install puts it in ~/go/bin), or launch it elsewhere"
	}
	return "set WISP_HOME to a folder outside the project, or launch wisp elsewhere"
}

// What an UnprotectableError names.
const (
	WhatHome       = "wisp's home"
	WhatExecutable = "the wisp executable"
)

// Serving is implemented by a backend that can confine once and start
// many commands inside that confinement (Landlock's served helper).
type Serving interface {
	Serve(spec Spec) (Server, error)
}

// ErrNotStarted is wrapped by Start when the command certainly did not
// start: the request never reached the helper, or the helper said it could
// not start it. Only then may a caller run the command another way; any
// other failure may come after the command started, and running it again
// would launch it twice.
var ErrNotStarted = errors.New("the command was not started")
