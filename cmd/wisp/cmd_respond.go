//go:build !wisplean

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/pending"
)

type respondOptions struct {
	runnerOptions
	yes    bool
	json   bool
	prompt string
}

func newRespondCmd(app *App) *cobra.Command {
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
				return usageError{fmt.Errorf("wisp respond needs a prompt; usage: %s", cmd.UseLine())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.prompt = strings.Join(args, " ")
			return runRespond(cmd.Context(), app, opts)
		},
	}
	respondFlags(cmd, &opts)
	return cmd
}

func respondFlags(cmd *cobra.Command, opts *respondOptions) {
	f := cmd.Flags()
	f.BoolVar(&opts.yes, "yes", false, "approve what may be approved without a person (never a run outside the sandbox)")
	f.BoolVar(&opts.unsafe, "unsafe", false, "run every command without the sandbox (said on every run)")
	f.BoolVar(&opts.json, "json", false, "write wisp chat --json's event lines on stdout instead of the words")
}

// nobodyToAsk is why non-interactive respond refuses a command that asks.
const nobodyToAsk = "no one can be asked here: wisp respond is not interactive (approval.outOfBand files such " +
	"requests for wisp-bar and wisp approvals; --yes approves what may be approved without a person)"

// respondApprovers are the faces respond asks through, besides --yes's:
// the pending channel when approval.outOfBand is on; otherwise nobody,
// said with the reason (0064 item 6 refuses a run outside the sandbox in
// both of the other cases, with its own words, from the gate).
func respondApprovers(outOfBand, yes bool) []approval.Approver {
	if outOfBand || yes {
		return nil
	}
	return []approval.Approver{approval.Denying{Why: nobodyToAsk}}
}

func runRespond(ctx context.Context, app *App, opts respondOptions) error {
	s, err := newSession(app, opts.runnerOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	s.wireGate(gateOptions{face: pending.FaceRespond, yes: opts.yes,
		extra: respondApprovers(s.cfg.Approval.OutOfBand, opts.yes)})
	var face agent.Face
	label := "respond"
	if opts.json {
		face, label = chat.NewJSONFace(app.Stdout), "respond --json"
	} else {
		tf := chat.NewTerminalFace(app.Stdout, app.Stderr, chat.ColourWanted(app.Getenv, isTerminal(app.Stderr)))
		tf.OutputHint = "the whole output: " + s.home.OutputsDir() + "/%s.log"
		tf.MarkdownSource = !isTerminal(app.Stdout) // wisp respond "write the README" > README.md
		face = tf
	}
	conv, err := openConversation(ctx, app, s, face, convOptions{face: label, chat: chatOptions{yes: opts.yes}})
	if err != nil {
		return err
	}
	defer conv.close()
	err = conv.agent.Send(ctx, opts.prompt)
	if opts.json {
		face.Emit(agent.Event{Type: agent.EventTurnEnd})
	}
	if err != nil {
		return &exitError{code: exitFailure, err: err, quiet: true} // already said on the face
	}
	return nil
}

// addBarePrompt makes `wisp "PROMPT"` respond: a root command given words
// that name no command. A single word close to a command's name is taken
// for a typo of it, as cobra would, rather than sent to the model.
func addBarePrompt(root *cobra.Command, app *App) {
	var opts respondOptions
	root.Use = `wisp ["PROMPT"]`
	if root.SuggestionsMinimumDistance <= 0 {
		root.SuggestionsMinimumDistance = 2
	}
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && !strings.ContainsAny(args[0], " \t\n") {
			if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
				return usageError{fmt.Errorf("unknown command %q for wisp; did you mean %s? (a prompt of several words "+
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
		return runRespond(cmd.Context(), app, opts)
	}
	respondFlags(root, &opts)
}
