package chat

import (
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// What the terminal shows of a local model's ways: its thinking folded
// into one dim line (the spinner says "thinking" while it lasts), the
// wait for a model that is loading, what to try after a failure, and a
// call the model wrote as text.

// thinkingLine stands for the model's thinking, which is not shown.
const thinkingLine = "· thinking …"

// thought shows that the model thinks: one line for the whole of it; the
// face's lock is held.
func (f *TerminalFace) thought() {
	if f.thinking {
		return
	}
	f.stopProgress()
	f.paused = nil
	f.gen++
	f.md.End()
	f.line(sgrDim, thinkingLine)
	f.thinking = true
	f.startWait(false, "thinking")
}

// waiting draws the spinner, or says what the wait it draws is.
func (f *TerminalFace) waiting(label string) {
	if p := f.prog; p != nil && !p.command && label != "" {
		p.label = label
		f.drawProgress()
		return
	}
	f.startWait(false, label)
}

// hints are what the person may try after a note or an error.
func (f *TerminalFace) hints(hints []string) {
	for _, h := range hints {
		f.line(sgrDim, "  · "+render.Line(h))
	}
}

// fromText marks a call the model wrote as text.
func (f *TerminalFace) fromText(ev agent.Event) {
	if ev.FromText {
		f.line(sgrDim, "  (the model wrote this call as text; it runs as any call would)")
	}
}
