// Package app assembles what wisp's commands need from the configuration:
// the outside world a command sees (Factory: streams, environment, clock, home),
// the session (the audit log and the runner with its sandbox), the gate and
// its approvers, and the sandbox's label. The commands (internal/cli) are
// flags, one call into here, and output. What only the agent needs (the
// conversation, the model check, the model's toolbox) is in app/agentapp,
// so that the lean wisp, which links this package, links no model client.
// (docs/architecture.md, layer 5)
package app

import (
	"errors"
	"os"
	"sync"
	"time"

	"io"

	"github.com/wisp-sh/wisp/internal/config"
)

// Factory is what every command needs from the outside world, injected so that
// tests can run commands in-process against a scratch home.
type Factory struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Now    func() time.Time
	// UserHome finds the person's home directory (~), for ~/.wisp.
	UserHome func() (string, error)
	// Executable is the path of this wisp binary, for the sandbox helper.
	Executable func() (string, error)
	// BeforeSession, when set, sees the configuration before a session
	// starts anything: the lean wisp hands a run that wants wisp's network
	// proxy, which it leaves out, to wisp-agent there.
	BeforeSession func(config.Config) error

	// home is wisp's home as resolved once, at the first need of it: every
	// later read and write of this process uses that real path.
	home     *config.Home
	homeErr  error
	homeOnce sync.Once
}

// New is the Factory of a real process: its streams, environment and clock.
func New() *Factory {
	return &Factory{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Now: time.Now, UserHome: os.UserHomeDir,
		Executable: os.Executable,
	}
}

// HomePath resolves wisp's home to its real path, once per process,
// without creating it and without checking it: for what still runs with a
// home wisp does not trust (doctor, config path), so the person can find
// and fix it.
func (a *Factory) HomePath() (config.Home, error) {
	a.homeOnce.Do(func() {
		h, err := config.ResolveHome(a.Getenv, a.UserHome)
		a.home, a.homeErr = &h, err
	})
	return *a.home, a.homeErr
}

// Home is HomePath for everything that acts on the home: it refuses one
// that another user, or a confined command, could have changed (a link on
// the way that can be swapped, a folder or file others may write, one of
// another owner), with the fix. wisp changes nothing there itself.
func (a *Factory) Home() (config.Home, error) {
	home, err := a.HomePath()
	if err != nil {
		return home, err
	}
	return home, home.Check(os.Geteuid())
}

// Config resolves the home and loads config.json from it.
func (a *Factory) Config() (config.Home, config.Config, error) {
	home, err := a.Home()
	if err != nil {
		return home, config.Config{}, err
	}
	cfg, err := config.Load(home)
	return home, cfg, err
}

// UsageError marks a mistake in how wisp was called: the commands exit
// with the usage status for it (internal/cli).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// IsUsage says whether err is, or wraps, a UsageError.
func IsUsage(err error) bool {
	var u UsageError
	return errors.As(err, &u)
}
