package chat

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tty"
	"github.com/wisp-sh/wisp/pending"
)

// outputTailLines is how much of a model's command output the terminal
// shows under it; the model reads the bounded view, the person a glance.
const outputTailLines = 8

// TerminalFace renders events for a person. The model's words go to
// Words; everything else (commands, their output, notes) to Notes. chat
// gives both stdout; respond keeps stdout for the words alone.
//
// Everything someone else wrote (the model's words, its commands and
// their output, tool results, errors a server sent) goes through package
// render: it can draw only itself, wrapped at the terminal's width. The
// output of a command the person typed is theirs, written as it comes: it
// is their program, on its pseudo-terminal.
type TerminalFace struct {
	words, notes *render.Writer
	p            paint
	mu           sync.Mutex
	md           *render.Markdown // the model's words, rendered (one renderer, internal/render)
	tty          bool             // notes go to a terminal: progress is drawn
	prog         *progress        // what is drawn in place now, or nil
	held         int              // Holds under way: nothing is drawn in place
	paused       *progress        // a running command's rows, held
	gen          int              // events written as lines, for Hold's resume
	now          func() time.Time
	thinking     bool // the model's thinking is being shown, folded
	// OutputHint says how to see a whole output, with %s for its id;
	// empty: chat's /output ID.
	OutputHint string
	// MarkdownSource writes the model's words as the Markdown it sent
	// (rendered safe, not styled): respond's stdout into a file or a pipe,
	// where the source is what a script wants.
	MarkdownSource bool
}

// NewTerminalFace makes a face writing to words and notes (may be the
// same). Lines wrap at the width of a terminal they write to.
func NewTerminalFace(words, notes io.Writer, colour bool) *TerminalFace {
	w := render.NewWriter(words, widthOf(words))
	n := w
	if notes != words {
		n = render.NewWriter(notes, widthOf(notes))
	}
	return &TerminalFace{words: w, notes: n, p: paint{On: colour}, md: render.NewMarkdown(w, render.TerminalStyleIf(colour)),
		tty: isTTY(notes), now: time.Now}
}

// isTTY reports whether w is a terminal.
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, _, err := tty.Size(f)
	return err == nil
}

// widthOf gives the width of w when it is a terminal, read each time so
// a resize takes effect; 0 (no wrapping) otherwise.
func widthOf(w io.Writer) func() int {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	return func() int {
		width, _, err := tty.Size(f)
		if err != nil {
			return 0
		}
		return width
	}
}

// Emit renders one event.
func (f *TerminalFace) Emit(ev agent.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.progressed(ev) {
		return
	}
	f.stopProgress()
	f.paused = nil
	f.gen++
	f.thinking = false
	if ev.Type == agent.EventText && f.MarkdownSource {
		f.words.WriteString(ev.Text)
		return
	}
	if ev.Type == agent.EventText {
		f.md.Write(ev.Text)
		return
	}
	f.md.End()
	switch ev.Type {
	case agent.EventMessage:
		f.words.EndLine()
	case agent.EventOutput:
		f.words.Flush()
		f.notes.Passthrough(ev.Text)
	case agent.EventToolCall:
		f.toolCall(ev)
		f.fromText(ev)
	case agent.EventRetract:
		f.line(sgrDim, "· the words above were the model's thinking, not its answer")
	case agent.EventToolResult:
		if ev.Name != "run_command" {
			f.line(sgrDim, "  ⎿ "+render.Line(firstLine(ev.Text, 200)))
		}
	case agent.EventCommandOutcome:
		f.outcome(ev)
	case agent.EventNote:
		f.line(f.p.levelSGR(ev.Level), render.Line(ev.Text))
		f.hints(ev.Hints)
	case agent.EventError:
		f.line(sgrWarning, "wisp: error: "+render.Line(ev.Text))
		f.hints(ev.Hints)
	case agent.EventReady:
		f.ready(ev)
	}
}

// progressed draws what shows while the model is silent or its command
// runs; false for an event that ends that and is written as usual.
func (f *TerminalFace) progressed(ev agent.Event) bool {
	switch {
	case ev.Type == agent.EventReasoning:
		f.thought()
	case ev.Type == agent.EventWaiting:
		f.waiting(ev.Text)
	case ev.Type == agent.EventCommandStart && ev.Origin == string(runner.Model):
		f.startProgress(true)
	case ev.Type == agent.EventOutput && ev.Origin == string(runner.Model):
		if p := f.prog; p != nil && p.command {
			p.output(ev.Text)
			f.drawProgress()
		} else if p := f.paused; p != nil {
			p.output(ev.Text) // held by a dialog: shown when it is done
		}
	default:
		return false
	}
	return true
}

// NoteLine is a note as the face would write it, for a writer of its own
// (the editor's notices): rendered, in the level's style.
func (f *TerminalFace) NoteLine(level, text string) string {
	s := render.Line(text)
	if !f.p.On {
		return s
	}
	return f.p.levelSGR(level) + s + sgrReset
}

// Println writes one line of notes (help, /approvals).
func (f *TerminalFace) Println(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopProgress()
	f.md.End()
	f.line("", s)
}

// line writes s on a line of its own, rendered, in the style sgr.
func (f *TerminalFace) line(sgr, s string) {
	f.words.EndLine()
	f.notes.EndLine()
	f.styled(sgr, s)
	f.notes.EndLine()
}

// styled writes s rendered, in the style sgr when colour is on.
func (f *TerminalFace) styled(sgr, s string) {
	if !f.p.On || sgr == "" || s == "" {
		f.notes.WriteString(s)
		f.notes.Flush()
		return
	}
	f.notes.Raw(sgr)
	f.notes.WriteString(s)
	f.notes.Raw(sgrReset)
}

// toolCall shows what the model asks to run. The line is the model's:
// shown with its control characters escaped, so it cannot repaint the
// screen or pass for another line.
func (f *TerminalFace) toolCall(ev agent.Event) {
	f.words.EndLine()
	f.notes.EndLine()
	command := render.Line(ev.Command)
	switch {
	case ev.Name == "run_command" && ev.OutsideSandbox:
		f.styled(sgrOutside, "● "+command)
		f.styled(sgrDim, "  ("+pending.OutsideAsks+")")
	case ev.Name == "run_command" && ev.Command != "":
		f.styled(sgrBold, "● ")
		f.styled("", command)
	default:
		f.styled(sgrBold, "● ")
		f.styled("", render.Line(ev.Name)+" ")
		f.styled(sgrDim, render.Line(firstLine(ev.Arguments, 200)))
	}
	f.notes.EndLine()
}

// outcome shows how a command ended: for the model's, the tail of its
// output (the person's streamed as it ran), then the · notes.
func (f *TerminalFace) outcome(ev agent.Event) {
	f.notes.EndLine()
	if ev.Origin != "person" && ev.Output != "" {
		lines, above := tailLines(render.Text(ev.Output), outputTailLines)
		if above > 0 {
			f.line(sgrDim, "  │ "+f.aboveNote(above, render.Line(ev.OutputID)))
		}
		for _, l := range lines {
			f.line(sgrDim, "  │ "+l)
		}
	}
	for _, n := range ev.Notes {
		level := agent.LevelWarning
		if strings.HasPrefix(n, "· stopped") || strings.HasPrefix(n, "· exit status") {
			level = agent.LevelInfo
		}
		f.line(f.p.levelSGR(level), render.Line(n))
	}
}

func (f *TerminalFace) ready(ev agent.Event) {
	head := "wisp chat · " + ev.Model + " · " + ev.Dir
	if ev.Messages > 0 {
		head += fmt.Sprintf(" · resumed thread %s (%d messages)", ev.Thread, ev.Messages)
	}
	f.line(sgrDim, render.Line(head))
	f.line(sgrDim, "type a message, !COMMAND or !!COMMAND to run one yourself, /help for more")
}

func firstLine(s string, max int) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > max {
		s, cut = s[:max], true
	}
	if cut {
		s += " …"
	}
	return s
}

// tailLines are the last n lines of s, and how many came before them.
func tailLines(s string, n int) ([]string, int) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return lines, 0
	}
	return lines[len(lines)-n:], len(lines) - n
}

// aboveNote says how many lines of a command's output are not shown, and
// how to see them all.
func (f *TerminalFace) aboveNote(above int, id string) string {
	note := fmt.Sprintf("… %d lines above", above)
	if id == "" {
		return note
	}
	hint := f.OutputHint
	if hint == "" {
		hint = "/output %s shows them all"
	}
	return note + "; " + fmt.Sprintf(hint, id)
}
