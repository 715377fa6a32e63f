package sandbox

import (
	"os"
	"syscall"
)

// Server is a served helper: one start of the helper, confined to a spec
// once, that starts every command asked of it inside that confinement. It
// saves each confined command the start of a program. A backend that has
// one is Serving (Landlock's, on Linux).
type Server interface {
	// Start starts one command confined; wait returns its wait status
	// once it has ended. The command's process group (or session) id is
	// pid, as wisp sees it; 0 when the command has already ended and been
	// reaped, when there is no group left to signal. An error that wraps
	// ErrNotStarted says the command certainly did not start.
	Start(req ServeRequest) (pid int, wait func() (syscall.WaitStatus, error), err error)
	// Serves reports whether the server confines commands exactly as
	// argv, from the backend's Command, would.
	Serves(argv []string) bool
	// Close ends the helper, and the commands it started that still run.
	Close() error
}

// ServeRequest is one command for a Server: argv (argv[0] absolute) in
// Dir with Env, and its three standard streams. Session puts it in a new
// session with Stdin as its controlling terminal instead of a new group.
type ServeRequest struct {
	Argv                  []string
	Dir                   string
	Env                   []string
	Stdin, Stdout, Stderr *os.File
	Session               bool
	// Stopped, when set, is set once the command has ended to how many
	// processes it left running, which the helper stopped before it said
	// the command was done.
	Stopped *int
}
