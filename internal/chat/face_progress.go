package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/wisp-sh/wisp/internal/render"
)

// What the terminal shows while something runs that has not said
// anything yet: a spinner with the seconds waited for the model's first
// word, and under a model's command that runs, its elapsed time and the
// last lines of its output. Both are drawn below the last line written,
// redrawn in place, and erased before anything else is written, so what
// stays on the screen is what the plain face writes. Only on a terminal.

// liveLines is how many of a running command's last lines show.
const liveLines = 3

// maxLivePart bounds the line a command is still writing, as kept.
const maxLivePart = 1 << 10

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// progress is one thing being drawn: the spinner or a running command.
type progress struct {
	start   time.Time
	command bool     // a running command, not the wait for the model
	label   string   // what the wait is: "waiting for the model", "thinking", "loading the model"
	lines   []string // the command's last complete lines
	part    string   // and the one it is writing
	frame   int
	drawn   int // rows on the screen now
	stop    chan struct{}
}

// startProgress begins drawing p's kind; the face's lock is held.
func (f *TerminalFace) startProgress(command bool) { f.startWait(command, "") }

// startWait begins drawing a command's rows, or the spinner saying
// label (the default: waiting for the model).
func (f *TerminalFace) startWait(command bool, label string) {
	f.stopProgress()
	if !f.tty || f.held > 0 {
		return
	}
	f.words.EndLine()
	f.notes.EndLine()
	if label == "" {
		label = "waiting for the model"
	}
	p := &progress{start: f.now(), command: command, label: label, stop: make(chan struct{})}
	f.prog = p
	f.drawProgress()
	go f.tick(p)
}

// tick redraws p until it stops: the spinner's frame, the seconds.
func (f *TerminalFace) tick(p *progress) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			f.mu.Lock()
			if f.prog == p {
				p.frame++
				f.drawProgress()
			}
			f.mu.Unlock()
		}
	}
}

// Hold erases what is drawn in place and draws nothing more until the
// returned resume, which brings a running command's rows back unless
// something else was written meanwhile (a dialog is drawn between).
func (f *TerminalFace) Hold() (resume func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.prog
	f.stopProgress()
	if p != nil && p.command {
		f.paused = p // its output is still taken
	}
	f.held++
	gen := f.gen
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.held--
		if p == nil || !p.command || f.prog != nil || f.gen != gen || f.held > 0 || f.paused != p {
			return
		}
		f.paused = nil
		q := &progress{start: p.start, command: true, lines: p.lines, part: p.part, stop: make(chan struct{})}
		f.prog = q
		f.drawProgress()
		go f.tick(q)
	}
}

// stopProgress erases what is drawn and stops its ticks; the lock is held.
func (f *TerminalFace) stopProgress() {
	p := f.prog
	if p == nil {
		return
	}
	f.prog = nil
	close(p.stop)
	f.notes.Raw(eraseRows(p.drawn))
}

// eraseRows moves to the first of n rows drawn and erases from there.
func eraseRows(n int) string {
	if n == 0 {
		return ""
	}
	s := "\r"
	if n > 1 {
		s += fmt.Sprintf("\x1b[%dA", n-1)
	}
	return s + "\x1b[J"
}

// drawProgress redraws the progress rows in place, each cut to the width
// so that none wraps (the rows erased are the rows drawn).
func (f *TerminalFace) drawProgress() {
	p := f.prog
	width := 80
	if w := f.notes.Width; w != nil && w() > 0 {
		width = w()
	}
	secs := int(f.now().Sub(p.start) / time.Second)
	var rows []string
	if p.command {
		rows = append(rows, fmt.Sprintf("  ⋯ running · %ds", secs))
		for _, l := range p.shown() {
			rows = append(rows, "  │ "+l)
		}
	} else {
		rows = append(rows, fmt.Sprintf("%s %s · %ds", spinnerFrames[p.frame%len(spinnerFrames)], p.label, secs))
	}
	var b strings.Builder
	b.WriteString(eraseRows(p.drawn))
	for i, r := range rows {
		if i > 0 {
			b.WriteString("\r\n")
		}
		r = runewidth.Truncate(r, width-1, "…")
		if f.p.On {
			r = sgrDim + r + sgrReset
		}
		b.WriteString(r)
	}
	p.drawn = len(rows)
	f.notes.Raw(b.String())
}

// output takes a piece of a running command's output.
func (p *progress) output(s string) {
	for {
		line, rest, ok := strings.Cut(s, "\n")
		p.part += line
		if !ok {
			break
		}
		p.lines = append(p.lines, p.part)
		p.part, s = "", rest
		if len(p.lines) > liveLines {
			p.lines = p.lines[len(p.lines)-liveLines:]
		}
	}
	if len(p.part) > maxLivePart {
		p.part = p.part[len(p.part)-maxLivePart:]
	}
}

// shown are the last lines as one row each: what a carriage return
// overwrote is left out, as the terminal would, and the rest rendered.
func (p *progress) shown() []string {
	lines := append([]string(nil), p.lines...)
	if strings.TrimSpace(p.part) != "" {
		lines = append(lines, p.part)
	}
	if len(lines) > liveLines {
		lines = lines[len(lines)-liveLines:]
	}
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = strings.ReplaceAll(render.Text(l), "\t", "    ")
	}
	return lines
}
