package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/app"
)

// Version is wisp's version, set at build time with
// -ldflags "-X github.com/wisp-sh/wisp/internal/cli.Version=...".
var Version = "0.1.0-dev"

// AddCommands adds commands to the root: the agent's (agentcli.Add), in
// wisp-agent; the lean wisp adds none, and hands them to wisp-agent.
type AddCommands func(root *cobra.Command, a *app.Factory)

// Run executes one wisp invocation and returns its exit code. It is the one
// place where errors become exit codes and messages.
func Run(ctx context.Context, f *app.Factory, args []string, add AddCommands) int {
	root := NewRootCmd(f, add)
	root.SetArgs(args)
	root.SetIn(f.Stdin)
	root.SetOut(f.Stdout)
	root.SetErr(f.Stderr)
	stop := func() {}
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) {
		if WaitsOnSomething(cmd) {
			var c context.Context
			c, stop = signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			cmd.SetContext(c)
		}
	}
	err := root.ExecuteContext(ctx)
	stop()
	if err == nil {
		return ExitOK
	}
	var silent *ExitError
	if errors.As(err, &silent) && silent.Quiet {
		return silent.Code
	}
	PrintError(f.Stderr, err)
	return ExitCode(err)
}

// Quick marks a command (and those under it) that waits on nothing: it
// does what it does and ends, and a Ctrl-C may end it where it stands, as
// its writes are atomic. The others watch Ctrl-C and SIGTERM, to end what
// they wait on and say so; watching them costs every start a thread of the
// runtime's and its wake-ups, a seventh of `wisp version`'s time.
var Quick = map[string]string{quickAnnotation: "waits on nothing"}

const quickAnnotation = "wisp:quick"

// WaitsOnSomething says whether cmd is not quick: a new command watches
// the signals unless it says otherwise.
func WaitsOnSomething(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if _, ok := c.Annotations[quickAnnotation]; ok {
			return false
		}
	}
	return true
}

// NewRootCmd is wisp's root command with the lean commands, and those add
// adds.
func NewRootCmd(f *app.Factory, add AddCommands) *cobra.Command {
	root := &cobra.Command{
		Use:   "wisp",
		Short: "A local coding agent whose every command runs in a kernel sandbox",
		Long: `wisp is a local coding agent for the terminal. Every command the model runs
goes through the operator's deny and allow lists, then runs under a kernel
sandbox (Landlock on Linux, Seatbelt on macOS) that lets it write only under
its writable roots and never into wisp's own home. A person approves what the
risk calls for.`,
		Version:       Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("wisp {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return app.UsageError{Err: err} })
	if add != nil {
		add(root, f) // wisp-agent's: respond and the bare prompt, chat, mcp, tui, threads, doctor
	}
	root.AddCommand(
		newVersionCmd(f),
		newConfigCmd(f),
		newRunCmd(f),
		newApprovalsCmd(f),
		newPolicyCmd(f),
		newLogsCmd(f),
		newSandboxCmd(f),
		// Later command groups add themselves here, one line each.
	)
	return root
}

func newVersionCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "Print wisp's version",
		Annotations: Quick,
		Args:        NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(f.Stdout, "wisp %s\n", Version)
			return err
		},
	}
}
