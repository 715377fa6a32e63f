package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
	"github.com/wisp-sh/wisp/internal/render"
)

// Undoer is what /undo and /redo drive (*agent.Agent): the plan written
// to out, the one question asked through ask.
type Undoer interface {
	Undo(redo bool, out io.Writer, ask undo.Ask) error
}

// undoQuestion is /undo's one question, asked in a dialog: answered by
// the first letter of an answer (Esc is the last one, no or cancel);
// Enter answers nothing, so a key meant for the box cannot undo.
type undoQuestion struct {
	plan     []string // the end of what will change; all of it is in the transcript
	question string
	answers  []string
	reply    chan string
}

// undoPlanLines is how much of the plan the dialog shows.
const undoPlanLines = 12

// undoAskMsg opens the dialog; undoDoneMsg ends the command.
type (
	undoAskMsg  struct{ q *undoQuestion }
	undoDoneMsg struct {
		out string // what the command wrote after the question
		err error
	}
)

// planWriter collects what the undo writes, and hands over what came
// since it was last taken.
type planWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (w *planWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *planWriter) take() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.buf.String()
	w.buf.Reset()
	return s
}

// runUndo runs /undo or /redo in the background, asking in a dialog; ok
// is false when the loop cannot undo (then chat's command answers).
func (m *Model) runUndo(cmd string) (tea.Cmd, bool) {
	u, ok := m.o.Loop.(Undoer)
	if !ok {
		return nil, false
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel = true, cancel
	face := m.o.Face
	out := &planWriter{}
	ask := func(q string, answers []string) (string, error) {
		reply := make(chan string, 1)
		face.post(undoAskMsg{&undoQuestion{plan: strings.Split(strings.TrimRight(out.take(), "\n"), "\n"),
			question: q, answers: answers, reply: reply}})
		select {
		case a := <-reply:
			return a, nil
		case <-ctx.Done():
			return "", undo.ErrCanceled
		}
	}
	return func() tea.Msg {
		err := u.Undo(cmd == "/redo", out, ask)
		cancel()
		face.post(undoDoneMsg{out: out.take(), err: err})
		return nil
	}, true
}

// undoAsk shows the plan in the transcript and opens the dialog.
func (m *Model) undoAsk(q *undoQuestion) tea.Cmd {
	m.tr.add(&entry{kind: entryLines, text: render.Text(strings.Join(q.plan, "\n"))})
	if len(q.plan) > undoPlanLines {
		q.plan = append([]string{"…"}, q.plan[len(q.plan)-undoPlanLines:]...)
	}
	m.dialogs = append(m.dialogs, &dialog{undo: q})
	return nil
}

// undoDone shows how the command ended.
func (m *Model) undoDone(d undoDoneMsg) {
	m.busy, m.cancel = false, nil
	if out := strings.TrimRight(d.out, "\n"); out != "" {
		m.tr.add(&entry{kind: entryLines, text: render.Text(out)})
	}
	switch {
	case errors.Is(d.err, undo.ErrCanceled):
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· nothing was changed"})
	case d.err != nil:
		m.tr.add(&entry{kind: entryNote, level: agent.LevelWarning, text: "· " + d.err.Error()})
	}
}

// key answers the question with k, or not: the first letter of an
// answer, Esc the last.
func (q *undoQuestion) key(k tea.KeyPressMsg) (string, bool) {
	key := k.String()
	if key == "esc" {
		return q.answers[len(q.answers)-1], true
	}
	for _, a := range q.answers {
		if key == a[:1] {
			return a, true
		}
	}
	return "", false
}

// keys is the dialog's last line: "[y] yes   [n] no".
func (q *undoQuestion) keys() string {
	var ks []string
	for _, a := range q.answers {
		ks = append(ks, "["+a[:1]+"] "+a)
	}
	return strings.Join(ks, "   ")
}

func (q *undoQuestion) lines(st styles) []styledLine {
	out := []styledLine{{"take back the files' changes?", st.modalTitle}}
	for _, l := range q.plan {
		out = append(out, styledLine{"  " + render.Line(l), st.modal})
	}
	return append(out, styledLine{render.Line(q.question), st.modalTitle}, styledLine{q.keys(), st.modalTitle})
}

// undoKey answers the undo dialog on screen.
func (m *Model) undoKey(d *dialog, k tea.KeyPressMsg) tea.Cmd {
	a, ok := d.undo.key(k)
	if !ok {
		return nil
	}
	d.undo.reply <- a
	m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· you answered " + a})
	return m.nextDialog()
}
