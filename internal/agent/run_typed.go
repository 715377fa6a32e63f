package agent

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/runner"
)

// nothingToRun answers a bare ! or !!.
const nothingToRun = "· nothing to run: type a command after ! to run it in the sandbox, or after !! to run it outside"

// RunTyped runs a command the person typed: origin person, so no risk
// check, no approval and no time limit, but the operator's lists and (for
// !) the sandbox. A !! line the lists allow and that will really leave the
// sandbox is marked in the danger colour before it starts (docs/decisions.md,
// D27). The model is told what the person ran, and the thread keeps it.
// Stopping ctx (Ctrl-C) ends the command's process group.
func (a *Agent) RunTyped(ctx context.Context, t Typed) error {
	if t.Command == "" {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelInfo, Text: nothingToRun})
		return nil
	}
	if !a.beforeTurn(ctx, typedLabel(t)) {
		return nil
	}
	defer a.afterTurn()
	r := a.o.Tools.Runner
	if t.OutsideSandbox && r.Policy.Check(t.Command).Allowed && r.Resolve(true) == runner.ModeOutside {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelDanger, Text: runner.OutsideTypedNote})
	}
	a.o.Face.Emit(Event{Type: EventCommandStart, Command: t.Command, Origin: string(runner.Person), OutsideSandbox: t.OutsideSandbox})
	live := &liveWriter{face: a.o.Face}
	res, err := r.Run(ctx, runner.Request{Line: t.Command, Origin: runner.Person, OutsideSandbox: t.OutsideSandbox,
		Live: live, Terminal: a.o.Terminal})
	live.flush()
	if err != nil {
		return fmt.Errorf("run %s: %w", t.Command, err)
	}
	a.o.Face.Emit(outcomeEvent(res))
	notice := typedNotice(t, res, r.Dir)
	pc := &PersonCommand{Command: t.Command, OutsideSandbox: t.OutsideSandbox, Notice: notice}
	if res.Ran {
		code := res.ExitCode
		pc.ExitCode = &code
	}
	a.add(model.Message{Role: model.RoleUser, Content: notice}, Record{Kind: RecordPersonCommand, PersonCommand: pc})
	return nil
}

// typedNotice tells the model that the person ran a command themselves,
// where, and what came of it.
func typedNotice(t Typed, res runner.Result, dir string) string {
	where := "in the sandbox"
	if t.OutsideSandbox {
		where = "outside the sandbox"
	}
	if !res.Ran {
		return fmt.Sprintf("[The person typed a command to run themselves, %s, in %s; it did not run.]\n$ %s\n%s",
			where, dir, t.Command, res.Message)
	}
	return fmt.Sprintf("[The person ran a command themselves, %s, in %s.]\n$ %s\n%s", where, dir, t.Command, res.ModelText())
}

// liveWriter passes a typed command's output to the face as it comes,
// holding back a UTF-8 sequence cut between two writes.
type liveWriter struct {
	face   Face
	origin string // "" for the person's typed command, whose events have always had none
	tail   []byte
}

func (w *liveWriter) Write(p []byte) (int, error) {
	data := append(w.tail, p...)
	cut := len(data)
	for i := 1; i <= 3 && i <= len(data); i++ {
		if utf8.RuneStart(data[len(data)-i]) {
			if !utf8.FullRune(data[len(data)-i:]) {
				cut = len(data) - i
			}
			break
		}
	}
	w.tail = append([]byte(nil), data[cut:]...)
	if cut > 0 {
		w.face.Emit(Event{Type: EventOutput, Text: string(data[:cut]), Origin: w.origin})
	}
	return len(p), nil
}

func (w *liveWriter) flush() {
	if len(w.tail) > 0 {
		w.face.Emit(Event{Type: EventOutput, Text: string(w.tail), Origin: w.origin})
		w.tail = nil
	}
}
