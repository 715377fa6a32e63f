package chat

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
)

// UndoHelp is /help's lines for /undo and /redo.
const UndoHelp = `  /undo         take back the last turn's changes to the files: shows them, asks once
                (/undo yes, keep or overwrite answers at once)
  /redo         take back the last /undo`

// undoSlash is /undo and /redo: what will change is shown, the person is
// asked once on the next line they type, and files they changed since the
// turn are listed and kept unless they say overwrite. Given an answer
// (/undo yes, /undo keep, /undo overwrite) it asks nothing; where no line
// can be read (the tui runs it in the background) it shows what would
// change and how to answer.
func undoSlash(ctx context.Context, o TerminalOptions, fields []string) {
	say := o.Face.Println
	if len(fields) > 2 {
		say("· usage: " + fields[0] + " [yes|keep|overwrite] (wisp undo --list and wisp undo N go further back)")
		return
	}
	ask := LineAsk(ctx, o)
	switch {
	case len(fields) == 2:
		ask = givenAnswer(fields[0], fields[1], say)
	case o.Lines == nil:
		ask = answerByCommand(fields[0], say)
	}
	err := o.Agent.Undo(fields[0] == "/redo", lineWriter(say), ask)
	switch {
	case errors.Is(err, errAnswerLater):
	case errors.Is(err, undo.ErrCanceled):
		say("· nothing was changed")
	case err != nil:
		say("· " + err.Error())
	}
}

// errAnswerLater: the question was shown with the commands that answer it.
var errAnswerLater = errors.New("answer with a command")

func answerByCommand(cmd string, say func(string)) undo.Ask {
	return func(q string, answers []string) (string, error) {
		var ways []string
		for _, a := range answers {
			if a != "no" && a != "cancel" {
				ways = append(ways, cmd+" "+a)
			}
		}
		say("· " + q + " Type " + strings.Join(ways, " or ") + " to go ahead.")
		return "", errAnswerLater
	}
}

// givenAnswer is the answer typed with the command, if it is one the
// question takes; else the question is shown with the ones it takes.
func givenAnswer(cmd, given string, say func(string)) undo.Ask {
	return func(q string, answers []string) (string, error) {
		if a := strings.ToLower(given); slices.Contains(answers, a) {
			return a, nil
		}
		return answerByCommand(cmd, say)(q, answers)
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
