package tui

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// cardTailLines is how much of a command's output its card shows: the
// model reads the bounded view, the person a glance.
const cardTailLines = 8

// layout is what laying out an entry needs.
type layout struct {
	width   int
	st      styles
	now     time.Time
	spinner string // the spinner's frame
	// asking is the command line the open dialog asks about, "" when none:
	// its card waits for the person, not for the command.
	asking string
}

// lay returns e's lines, from its kept layout when it has one for this
// width. A running card is laid out afresh.
func (l layout) lay(e *entry) []string {
	if e.width == l.width && e.lines != nil && !(e.kind == entryCard && e.card.running) {
		return e.lines
	}
	var lines []string
	switch e.kind {
	case entryUser:
		lines = hang("› ", render.Text(e.text), l.width-2, l.st.bold)
	case entryWords:
		lines = markdown(e.text, l.width, l.st)
	case entrySent:
		lines = l.sent(e.sent)
	case entryCard:
		lines = l.card(e.card)
	case entryNote:
		lines = wrap(render.Text(e.text), l.width, l.noteStyle(e.level))
	case entryLines:
		for _, s := range strings.Split(render.Text(e.text), "\n") {
			lines = append(lines, wrap(s, l.width, l.st.dim)...)
		}
	}
	lines = append(lines, "") // a blank line between entries
	e.width, e.lines = l.width, lines
	return lines
}

func (l layout) noteStyle(level string) styler {
	switch level {
	case agent.LevelDanger:
		return l.st.danger
	case agent.LevelWarning:
		return l.st.warning
	}
	return l.st.dim
}

// sent is a ! or !! line as sent: "! command" on commandSent, "!!
// command" on outsideSent. The command is the person's, shown escaped.
func (l layout) sent(s Sent) []string {
	st := l.st.commandSent
	if s.Mode == Outside {
		st = l.st.outsideSent
	}
	return wrap(s.Mode.Marker()+" "+render.Line(s.Text), l.width, st)
}

// card is a command: its line, a spinner and the time while it runs, its
// output's last lines, its exit, its notes and its sandbox: line.
func (l layout) card(c *card) []string {
	lines := l.cardHead(c)
	bar := l.st.dim.Render("│ ")
	switch {
	case c.running && l.waitsForAnswer(c):
		lines = append(lines, "  "+l.st.spinner.Render(l.spinner)+" "+l.st.dim.Render("waiting for your answer"))
	case c.running:
		lines = append(lines, "  "+l.st.spinner.Render(l.spinner)+" "+l.st.dim.Render("running "+elapsed(l.now.Sub(c.started))))
		if len(c.live) > 0 {
			for _, s := range lastLines(render.Text(string(c.live)), cardTailLines) {
				lines = append(lines, hang("  "+bar, s, l.width-4, l.st.dim)...)
			}
		}
		return lines
	case c.result != "":
		return append(lines, hang("  ⎿ ", c.result, l.width-4, l.st.dim)...)
	}
	if c.output != "" && !c.person {
		for _, s := range lastLines(render.Text(c.output), cardTailLines) {
			lines = append(lines, hang("  "+bar, s, l.width-4, l.st.dim)...)
		}
	} else if len(c.live) > 0 {
		for _, s := range lastLines(render.Text(string(c.live)), cardTailLines) {
			lines = append(lines, hang("  "+bar, s, l.width-4, l.st.dim)...)
		}
	}
	return append(lines, l.cardEnd(c)...)
}

func (l layout) cardHead(c *card) []string {
	switch {
	case c.person:
		return nil // the sent line above is its head
	case c.command != "":
		head := "● " + render.Line(c.command)
		if c.asksOutside {
			return append(wrap(head, l.width, l.st.card.Bold(true)), l.st.danger.Render("  "+pending.OutsideAsks))
		}
		return wrap(head, l.width, l.st.card.Bold(true))
	}
	return wrap("● "+render.Line(c.name)+" "+render.Line(firstLine(c.args, 200)), l.width, l.st.card)
}

// cardEnd is how the command ended: its exit and time, the notes, and
// the sandbox: line.
func (l layout) cardEnd(c *card) []string {
	var lines []string
	switch {
	case !c.ran && c.notRun != "":
		lines = append(lines, wrap("  "+render.Line(c.notRun), l.width, l.st.warning)...)
	case c.ran:
		lines = append(lines, l.st.dim.Render("  "+exitText(c.exit)+" · "+elapsed(c.ended.Sub(c.started))))
	}
	// A typed command's notes say what the sandbox did in the person's
	// words; a model's card shows the sandbox: line the model read instead.
	model := !c.person && c.sandboxLine != ""
	sandboxNote := "· " + strings.TrimPrefix(c.sandboxLine, "sandbox: ")
	for _, n := range c.notes {
		if strings.HasPrefix(n, "· exit status") || n == c.notRun ||
			(model && (n == sandboxNote || strings.HasPrefix(n, "· the sandbox"))) {
			continue
		}
		for _, part := range strings.Split(n, "\n") {
			lines = append(lines, wrap("  "+render.Line(part), l.width, l.st.warning)...)
		}
	}
	if model {
		lines = append(lines, wrap("  "+render.Line(c.sandboxLine), l.width, l.st.warning)...)
	}
	return lines
}

func exitText(code int) string {
	switch {
	case code == 0:
		return "exit 0"
	case code > 128 && code < 128+65:
		return fmt.Sprintf("exit %d (%s)", code, syscall.Signal(code-128))
	case code < 0:
		return "ended by a signal"
	}
	return "exit " + strconv.Itoa(code)
}

// elapsed is a duration as a person reads it: 0.4s, 12s, 3m05s.
func elapsed(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func firstLine(s string, n int) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if ansi.StringWidth(s) > n {
		s, cut = ansi.Truncate(s, n, ""), true
	}
	if cut {
		s += " …"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// waitsForAnswer reports whether c is the model's command the open dialog
// asks about: the gate has not let it run, so no clock runs on its card.
func (l layout) waitsForAnswer(c *card) bool {
	return l.asking != "" && !c.cleared && !c.person && c.command == l.asking
}
