package agentcli

import (
	"context"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/app/agentapp"
	"github.com/wisp-sh/wisp/internal/cli"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/pending"
)

type respondOptions struct {
	app.SessionOptions
	yes    bool
	json   bool
	prompt string
}

func newRespondCmd(f *app.Factory) *cobra.Command {
	var opts respondOptions
	cmd := &cobra.Command{
		Use:   "respond [flags] PROMPT",
		Short: "Answer one prompt without a conversation: nobody is asked unless approval.outOfBand",
		Long: `Give the model one prompt and print its answer on stdout; what it runs is
said on stderr. Nothing asks in the terminal: a command that needs approval
waits in the pending channel for wisp-bar or wisp approvals when
approval.outOfBand is on, and is refused otherwise. --yes approves what may be
approved without a person, never a run outside the sandbox.

With --json, stdout carries wisp chat --json's event lines for the one
prompt instead (ready, text, toolCall, commandOutcome, message, turnEnd, …;
docs/chat.md has the schema), and nothing else.

wisp "PROMPT" is the same as wisp respond "PROMPT".`,
		Example: `  wisp respond "why does make test fail?"
  wisp "summarise the TODOs in this repository"
  wisp respond --json "list the failing tests" | jq -c 'select(.type == "message")'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.UsageError{Err: fmt.Errorf("wisp respond needs a prompt; usage: %s", cmd.UseLine())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.prompt = strings.Join(args, " ")
			return runRespond(cmd.Context(), f, opts)
		},
	}
	respondFlags(cmd, &opts)
	return cmd
}

func respondFlags(cmd *cobra.Command, opts *respondOptions) {
	fl := cmd.Flags()
	fl.BoolVar(&opts.yes, "yes", false, "approve what may be approved without a person (never a run outside the sandbox)")
	fl.BoolVar(&opts.Unsafe, "unsafe", false, "run every command without the sandbox (said on every run)")
	fl.BoolVar(&opts.json, "json", false, "write wisp chat --json's event lines on stdout instead of the words")
}

// NobodyToAsk is why non-interactive respond refuses a command that asks.
const NobodyToAsk = "no one can be asked here: wisp respond is not interactive (approval.outOfBand files such " +
	"requests for wisp-bar and wisp approvals; --yes approves what may be approved without a person)"

// respondApprovers are the faces respond asks through, besides --yes's:
// the pending channel when approval.outOfBand is on; otherwise nobody,
// said with the reason (decision D18 refuses a run outside the sandbox in
// both of the other cases, with its own words, from the gate).
func respondApprovers(outOfBand, yes bool) []approval.Approver {
	if outOfBand || yes {
		return nil
	}
	return []approval.Approver{approval.Denying{Why: NobodyToAsk}}
}

func runRespond(ctx context.Context, f *app.Factory, opts respondOptions) error {
	s, err := app.NewSession(f, opts.SessionOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	s.WireGate(app.GateOptions{Face: pending.FaceRespond, Yes: opts.yes,
		Extra: respondApprovers(s.Cfg.Approval.OutOfBand, opts.yes)})
	var face agent.Face
	label := "respond"
	if opts.json {
		face, label = chat.NewJSONFace(f.Stdout), "respond --json"
	} else {
		tf := chat.NewTerminalFace(f.Stdout, f.Stderr, chat.ColourWanted(f.Getenv, cli.IsTerminal(f.Stderr)))
		tf.OutputHint = "the whole output: " + s.Home.OutputsDir() + "/%s.log"
		tf.MarkdownSource = !cli.IsTerminal(f.Stdout) // wisp respond "write the README" > README.md
		face = tf
	}
	conv, err := agentapp.Open(ctx, f, s, face, agentapp.Options{Face: label, Yes: opts.yes})
	if err != nil {
		return err
	}
	defer conv.Close()
	err = conv.Agent.Send(ctx, opts.prompt)
	if opts.json {
		face.Emit(agent.Event{Type: agent.EventTurnEnd})
	}
	if err != nil {
		return &cli.ExitError{Code: cli.ExitFailure, Err: err, Quiet: true} // already said on the face
	}
	return nil
}

// addBarePrompt makes `wisp "PROMPT"` respond: a root command given words
// that name no command. A single word close to a command's name is taken
// for a typo of it, as cobra would, rather than sent to the model.
func addBarePrompt(root *cobra.Command, f *app.Factory) {
	var opts respondOptions
	root.Use = `wisp ["PROMPT"]`
	if root.SuggestionsMinimumDistance <= 0 {
		root.SuggestionsMinimumDistance = 2
	}
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && !strings.ContainsAny(args[0], " \t\n") {
			if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
				return app.UsageError{Err: fmt.Errorf("unknown command %q for wisp; did you mean %s? (a prompt of several words "+
					"goes in quotes: wisp \"%s …\")", args[0], strings.Join(near, " or "), args[0])}
			}
		}
		return nil
	}
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		opts.prompt = strings.Join(args, " ")
		return runRespond(cmd.Context(), f, opts)
	}
	respondFlags(root, &opts)
}
