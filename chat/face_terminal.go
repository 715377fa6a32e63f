package chat

import (
	"fmt"
	"github.com/wisp-sh/wisp/internal/visible"
	"io"
	"strings"
	"sync"
)

// outputTailLines is how much of a model's command output the terminal
// shows under it; the model reads the bounded view, the person a glance.
const outputTailLines = 8

// TerminalFace renders events for a person. The model's words go to
// Words; everything else (commands, their output, notes) to Notes. chat
// gives both stdout; respond keeps stdout for the words alone.
type TerminalFace struct {
	words, notes *lineWriter
	p            Palette
	mu           sync.Mutex
}

// NewTerminalFace makes a face writing to words and notes (may be the same).
func NewTerminalFace(words, notes io.Writer, colour bool) *TerminalFace {
	w := &lineWriter{w: words, atStart: true}
	n := w
	if notes != words {
		n = &lineWriter{w: notes, atStart: true}
	}
	return &TerminalFace{words: w, notes: n, p: Palette{On: colour}}
}

// Emit renders one event.
func (f *TerminalFace) Emit(ev Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch ev.Type {
	case EventText:
		f.words.WriteString(ev.Text)
	case EventMessage:
		f.words.endLine()
	case EventOutput:
		f.notes.WriteString(ev.Text)
	case EventToolCall:
		f.toolCall(ev)
	case EventToolResult:
		if ev.Name != "run_command" {
			f.line(f.p.paint(sgrDim, "  ⎿ "+firstLine(ev.Text, 200)))
		}
	case EventCommandOutcome:
		f.outcome(ev)
	case EventNote:
		f.line(f.p.level(ev.Level, ev.Text))
	case EventError:
		f.line(f.p.paint(sgrWarning, "wisp: error: "+ev.Text))
	case EventReady:
		f.ready(ev)
	}
}

// Println writes one line of notes (help, /approvals).
func (f *TerminalFace) Println(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.line(s)
}

func (f *TerminalFace) line(s string) {
	f.words.endLine()
	f.notes.endLine()
	f.notes.WriteString(s + "\n")
}

// toolCall shows what the model asks to run. The line is the model's:
// shown with its control characters escaped, so it cannot repaint the
// screen or pass for another line.
func (f *TerminalFace) toolCall(ev Event) {
	command := visible.Line(ev.Command)
	switch {
	case ev.Name == "run_command" && ev.OutsideSandbox:
		f.line(f.p.paint(sgrOutside, "● "+command) + f.p.paint(sgrDim, "  (asks to run OUTSIDE the sandbox)"))
	case ev.Name == "run_command" && ev.Command != "":
		f.line(f.p.paint(sgrBold, "● ") + command)
	default:
		f.line(f.p.paint(sgrBold, "● ") + visible.Line(ev.Name) + " " + f.p.paint(sgrDim, visible.Line(firstLine(ev.Arguments, 200))))
	}
}

// outcome shows how a command ended: for the model's, the tail of its
// output (the person's streamed as it ran), then the · notes.
func (f *TerminalFace) outcome(ev Event) {
	f.notes.endLine()
	if ev.Origin != "person" && ev.Output != "" {
		for _, l := range tailLines(ev.Output, outputTailLines) {
			f.line(f.p.paint(sgrDim, "  │ "+l))
		}
	}
	for _, n := range ev.Notes {
		level := LevelWarning
		if strings.HasPrefix(n, "· stopped") || strings.HasPrefix(n, "· exit status") {
			level = LevelInfo
		}
		f.line(f.p.level(level, n))
	}
}

func (f *TerminalFace) ready(ev Event) {
	head := "wisp chat · " + ev.Model + " · " + ev.Dir
	if ev.Messages > 0 {
		head += fmt.Sprintf(" · resumed thread %s (%d messages)", ev.Thread, ev.Messages)
	}
	f.line(f.p.paint(sgrDim, head))
	f.line(f.p.paint(sgrDim, "type a message, !COMMAND or !!COMMAND to run one yourself, /help for more"))
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

func tailLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		skipped := len(lines) - n
		lines = append([]string{fmt.Sprintf("… %d lines above", skipped)}, lines[skipped:]...)
	}
	return lines
}

// lineWriter remembers whether the last thing written ended a line, so a
// note never starts in the middle of the model's words or of output.
type lineWriter struct {
	w       io.Writer
	atStart bool
}

func (l *lineWriter) WriteString(s string) {
	if s == "" {
		return
	}
	io.WriteString(l.w, s)
	l.atStart = strings.HasSuffix(s, "\n")
}

func (l *lineWriter) endLine() {
	if !l.atStart {
		l.WriteString("\n")
	}
}
