package chat

import (
	"context"
	"errors"
	"strings"

	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
)

// UndoHelp is /help's lines for /undo and /redo.
const UndoHelp = `  /undo         take back the last turn's changes to the files: shows them, asks once
  /redo         take back the last /undo`

// undoSlash is /undo and /redo: what will change is shown, the person is
// asked once on the next line they type, and files they changed since the
// turn are listed and kept unless they say overwrite.
func undoSlash(ctx context.Context, o TerminalOptions, fields []string) {
	say := o.Face.Println
	if len(fields) != 1 {
		say("· usage: " + fields[0] + " (no arguments: wisp undo --list and wisp undo N go further back)")
		return
	}
	err := o.Agent.Undo(fields[0] == "/redo", lineWriter(say), LineAsk(ctx, o))
	switch {
	case errors.Is(err, undo.ErrCanceled):
		say("· nothing was changed")
	case err != nil:
		say("· " + err.Error())
	}
}

// LineAsk asks on the chat's next line: the question, then a line read
// back, an answer given whole or by its first letter. Ctrl-C, Ctrl-D or
// the end of the session is no.
func LineAsk(ctx context.Context, o TerminalOptions) undo.Ask {
	return func(q string, answers []string) (string, error) {
		for {
			o.Face.Println("· " + q + " [" + strings.Join(answers, "/") + "]")
			line, err := o.Lines.ReadLine(ctx)
			if err != nil {
				return "", undo.ErrCanceled
			}
			if a := undo.Match(line, answers); a != "" {
				return a, nil
			}
			o.Face.Println("· answer " + strings.Join(answers, " or "))
		}
	}
}

// CheckpointAsk is agent.Checkpoints.Ask for the chat: after the reason
// was said, whether to run the turn without a checkpoint.
func CheckpointAsk(o TerminalOptions) func(context.Context) bool {
	return func(ctx context.Context) bool {
		a, err := LineAsk(ctx, o)("Run this turn anyway, without a checkpoint?", []string{"yes", "no"})
		return err == nil && a == "yes"
	}
}

// lineWriter passes what is written to say, a line at a time.
type lineWriter func(string)

func (w lineWriter) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimSuffix(string(p), "\n"), "\n") {
		w(l)
	}
	return len(p), nil
}
