package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// App is what every command needs from the outside world, injected so that
// tests can run commands in-process against a scratch home.
type App struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Now    func() time.Time
	// UserHome finds the person's home directory (~), for ~/.wisp.
	UserHome func() (string, error)
	// Executable is the path of this wisp binary, for the sandbox helper.
	Executable func() (string, error)

	// home is wisp's home as resolved once, at the first need of it: every
	// later read and write of this process uses that real path.
	home     *config.Home
	homeErr  error
	homeOnce sync.Once
}

func newApp() *App {
	return &App{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Now: time.Now, UserHome: os.UserHomeDir,
		Executable: os.Executable,
	}
}

// HomePath resolves wisp's home to its real path, once per process,
// without creating it and without checking it: for what still runs with a
// home wisp does not trust (doctor, config path), so the person can find
// and fix it.
func (a *App) HomePath() (config.Home, error) {
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
func (a *App) Home() (config.Home, error) {
	home, err := a.HomePath()
	if err != nil {
		return home, err
	}
	return home, home.Check(os.Geteuid())
}

// Config resolves the home and loads config.json from it.
func (a *App) Config() (config.Home, config.Config, error) {
	home, err := a.Home()
	if err != nil {
		return home, config.Config{}, err
	}
	cfg, err := config.Load(home)
	return home, cfg, err
}

// run executes one wisp invocation and returns its exit code. It is the one
// place where errors become exit codes and messages.
func run(ctx context.Context, app *App, args []string) int {
	root := newRootCmd(app)
	root.SetArgs(args)
	root.SetIn(app.Stdin)
	root.SetOut(app.Stdout)
	root.SetErr(app.Stderr)
	stop := func() {}
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) {
		if waitsOnSomething(cmd) {
			var c context.Context
			c, stop = signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			cmd.SetContext(c)
		}
	}
	err := root.ExecuteContext(ctx)
	stop()
	if err == nil {
		return exitOK
	}
	var silent *exitError
	if errors.As(err, &silent) && silent.quiet {
		return silent.code
	}
	printError(app.Stderr, err)
	return exitCode(err)
}

// quick marks a command (and those under it) that waits on nothing: it
// does what it does and ends, and a Ctrl-C may end it where it stands, as
// its writes are atomic. The others watch Ctrl-C and SIGTERM, to end what
// they wait on and say so; watching them costs every start a thread of the
// runtime's and its wake-ups, a seventh of `wisp version`'s time.
var quick = map[string]string{quickAnnotation: "waits on nothing"}

const quickAnnotation = "wisp:quick"

// waitsOnSomething says whether cmd is not quick: a new command watches
// the signals unless it says otherwise.
func waitsOnSomething(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if _, ok := c.Annotations[quickAnnotation]; ok {
			return false
		}
	}
	return true
}

func newRootCmd(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "wisp",
		Short: "A local coding agent whose every command runs in a kernel sandbox",
		Long: `wisp is a local coding agent for the terminal. Every command the model runs
goes through the operator's deny and allow lists, then runs under a kernel
sandbox (Landlock on Linux, Seatbelt on macOS) that lets it write only under
its writable roots and never into wisp's own home. A person approves what the
risk calls for.`,
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("wisp {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addFaces(root, app) // respond and the bare prompt, chat, mcp, tui, doctor (faces.go)
	root.AddCommand(
		newVersionCmd(app),
		newConfigCmd(app),
		newRunCmd(app),
		newApprovalsCmd(app),
		newPolicyCmd(app),
		newLogsCmd(app),
		newSandboxCmd(app),
		// Later command groups add themselves here, one line each.
	)
	return root
}

func newVersionCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "Print wisp's version",
		Annotations: quick,
		Args:        noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(app.Stdout, "wisp %s\n", version)
			return err
		},
	}
}
