package agentcli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/app/agentapp"
	"github.com/wisp-sh/wisp/internal/cli"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/approval"
	wispmcp "github.com/wisp-sh/wisp/internal/mcp"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/sandbox"
)

type mcpOptions struct {
	app.SessionOptions
	yes bool
	dir string
}

func newMCPCmd(f *app.Factory) *cobra.Command {
	var opts mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve wisp's sandbox and approvals to another agent over MCP (stdio)",
		Long: `Serve the Model Context Protocol on stdin and stdout, for an agent such as
Claude Code: its tools run_command, add_directory and inspect go through the
operator's lists, the approvals and the sandbox, as the chat's do, in the
directory wisp mcp starts in (or --dir).

A command the risk calls for is put to the person through the client's
elicitation dialog when the client offers one, and, with approval.outOfBand
on, in the pending channel as well (wisp-bar, wisp approvals): the first
answer wins. Nothing in MCP approves by itself. A run outside the sandbox is
asked every time, and only a person answers it; --yes never does.

Add it to Claude Code with: claude mcp add wisp -- wisp mcp`,
		Args: cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.Unsafe, "unsafe", false, "run every command without the sandbox (every result says so)")
	fl.BoolVar(&opts.yes, "yes", false, "approve what may be approved without a person (never a run outside the sandbox, never a folder grant)")
	fl.StringVar(&opts.dir, "dir", "", "the project: where commands run and may write (default: the directory wisp mcp starts in)")
	return cmd
}

func runMCP(ctx context.Context, f *app.Factory, opts mcpOptions) error {
	if opts.dir != "" {
		// The launch directory is the project: a client that starts its
		// servers elsewhere names it.
		if err := os.Chdir(opts.dir); err != nil {
			return app.UsageError{Err: fmt.Errorf("--dir: %w", err)}
		}
	}
	s, err := app.NewSession(f, opts.SessionOptions)
	if errors.Is(err, sandbox.ErrRootIsSlash) {
		// Some clients start their servers in /.
		return cli.WithHint(err, "start wisp mcp in the project's folder, or name the folder with --dir")
	}
	if err != nil {
		return err
	}
	defer s.Close()
	if opts.Unsafe {
		fmt.Fprintln(f.Stderr, "wisp: warning: --unsafe: every command runs without the sandbox")
	}
	wireMCPGate(s, opts.yes)
	tb := agentapp.Toolbox(f, s) // add_directory asks through the gate's faces
	err = wispmcp.Serve(ctx, wispmcp.Options{Version: cli.Version, Toolbox: tb}, stdinCloser(f.Stdin), nopWriteCloser{f.Stdout})
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // a signal: the client or the person stopped the server
	}
	return err
}

// wireMCPGate asks through the client's elicitation (and the pending channel
// when it is on). When neither can ask, the refusal says the client cannot.
func wireMCPGate(s *app.Session, yes bool) {
	s.WireGate(app.GateOptions{Face: pending.FaceMCP, Yes: yes, Extra: []approval.Approver{wispmcp.Elicitation{}}})
	gate := s.Runner.Gate.(*approval.Gate)
	if !s.Cfg.Approval.OutOfBand {
		gate.NoPersonWhy = wispmcp.NoElicitation + ", and approval.outOfBand is off"
		if yes {
			gate.NoPersonWhy += " (--yes does not answer it)"
		}
	}
}

func stdinCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

// nopWriteCloser keeps stdout open when the session ends.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
