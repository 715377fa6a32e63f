package tui

import (
	"context"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/chat"
	"github.com/wisp-sh/wisp/internal/render"
)

// runTyped runs a ! or !! line as chat's do (chat.Agent.RunTyped: the
// lists, the sandbox for !, the OUTSIDE mark for !!, the thread). The
// command gets the terminal: the screen steps aside while it runs (an
// editor, a pager, a prompt work as in the plain chat) and comes back,
// the command's card in the transcript.
func (m *Model) runTyped(t chat.Typed) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel, m.typedTerm = true, cancel, true
	run := &typedRun{ctx: ctx, loop: m.o.Loop, t: t, face: m.o.Face, st: m.st}
	return tea.Exec(run, func(error) tea.Msg {
		cancel()
		m.o.Face.post(turnDoneMsg{})
		return backMsg{}
	})
}

// backMsg: the screen is the face's again, after a typed command had it.
// What the command left on it is unknown, so it is drawn whole.
type backMsg struct{}

// typedRun is a typed line as bubbletea's ExecCommand: Run happens with
// the terminal released, so the command's pseudo-terminal has the
// person's keys and screen.
type typedRun struct {
	ctx  context.Context
	loop Loop
	t    chat.Typed
	face *Face
	st   styles
	out  io.Writer
}

func (r *typedRun) SetStdin(io.Reader)    {}
func (r *typedRun) SetStderr(io.Writer)   {}
func (r *typedRun) SetStdout(w io.Writer) { r.out = w }

// Run runs the line with the face writing to the terminal: the marks the
// person must read before it starts, then its output.
func (r *typedRun) Run() error {
	if r.out != nil {
		r.face.setAside(r.out, r.st)
		defer r.face.setAside(nil, r.st)
		io.WriteString(r.out, r.st.bold.Render(r.t.Marks()+" "+render.Line(r.t.Command))+"\r\n")
	}
	if err := r.loop.RunTyped(r.ctx, r.t); err != nil {
		r.face.Emit(chat.Event{Type: chat.EventError, Text: err.Error()})
	}
	return nil
}

// slash runs a / command; ok is false when line is not one (a path such
// as /etc/hosts is a message).
func (m *Model) slash(line string) (quit, ok bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false, false
	}
	switch fields[0] {
	case "/quit", "/exit":
		return true, true
	case "/help", "/?":
		m.tr.add(&entry{kind: entryLines, text: helpText})
	case "/approvals":
		m.openList()
	default:
		return false, false
	}
	return false, true
}

// helpText is /help in the full-screen face.
const helpText = `Type a message for the model. At the start of the box:
  !       command mode (amber): Enter runs the line yourself in the sandbox, no approval, no time limit
  ! !     outside mode (red): Enter runs it OUTSIDE the sandbox: it may write anywhere you can
  Backspace at the start, or Delete in an empty box, steps back one mode; a paste never sends
Ctrl-O (or /approvals) lists the requests waiting in ~/.wisp/pending, answered there
Up and Down recall a line in its mode; PgUp and PgDn scroll; Ctrl-C stops the model or a command,
clears the box, or leaves; Ctrl-D in an empty box leaves; /quit leaves`
