package tui

import (
	"context"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// runTyped runs a ! or !! line through the agent (agent.Agent.RunTyped: the
// lists, the sandbox for !, the OUTSIDE mark for !!, the thread). The
// command gets the terminal: the screen steps aside while it runs (an
// editor, a pager, a prompt work as in the plain chat) and comes back,
// the command's card in the transcript.
func (m *Model) runTyped(t agent.Typed) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel = true, cancel
	run := &typedRun{ctx: ctx, loop: m.o.Loop, t: t, face: m.o.Face, st: m.st}
	face := m.o.Face
	if t.Command == "" { // a bare ! or !!: the agent says there is nothing to run
		return func() tea.Msg {
			run.Run()
			cancel()
			face.post(turnDoneMsg{})
			return nil
		}
	}
	return tea.Exec(run, func(err error) tea.Msg {
		cancel()
		if err != nil && !run.ran {
			face.Emit(agent.Event{Type: agent.EventError, Text: "the terminal could not be handed to the command, so it did not run: " + err.Error()})
		}
		face.post(turnDoneMsg{})
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
	t    agent.Typed
	face *Face
	st   styles
	out  io.Writer
	ran  bool
}

func (r *typedRun) SetStdin(io.Reader)    {}
func (r *typedRun) SetStderr(io.Writer)   {}
func (r *typedRun) SetStdout(w io.Writer) { r.out = w }

// Run runs the line with the face writing to the terminal: the marks the
// person must read before it starts, then its output.
func (r *typedRun) Run() error {
	r.ran = true
	if r.out != nil {
		r.face.setAside(r.out, r.st)
		defer r.face.setAside(nil, r.st)
		io.WriteString(r.out, r.st.bold.Render(r.t.Marks()+" "+render.Line(r.t.Command))+"\r\n")
	}
	if err := r.loop.RunTyped(r.ctx, r.t); err != nil {
		r.face.Emit(agent.Event{Type: agent.EventError, Text: err.Error()})
	}
	return nil
}

// slash runs the / commands about this screen (/help, /clear, /quit,
// /approvals alone opens the list); chat's others (/output, /new,
// /threads, /compact, /model, /status, /approvals with arguments) run
// through Options.Slash in the background, and what is not one of them
// is a message. handled is false when line goes on to the model.
func (m *Model) slash(line string) (tea.Cmd, bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return nil, false
	}
	switch {
	case fields[0] == "/quit" || fields[0] == "/exit":
		return m.quit(), true
	case fields[0] == "/help" || fields[0] == "/?":
		m.tr.add(&entry{kind: entryLines, text: helpText})
	case fields[0] == "/clear":
		m.tr, m.scroll = &Transcript{}, 0
	case fields[0] == "/approvals" && len(fields) == 1:
		m.openList()
	case m.o.Slash != nil:
		return m.runSlash(line), true
	default:
		return nil, false
	}
	return nil, true
}

// slashDoneMsg is what chat's / command printed, or that line was none.
type slashDoneMsg struct {
	line, out string
	quit, ok  bool
}

// runSlash runs chat's / command in the background: /compact asks the
// model, and nothing waits on the screen meanwhile.
func (m *Model) runSlash(line string) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel = true, cancel
	run, face := m.o.Slash, m.o.Face
	return func() tea.Msg {
		var out strings.Builder
		quit, ok := run(ctx, line, &out)
		cancel()
		face.post(slashDoneMsg{line: line, out: out.String(), quit: quit, ok: ok})
		return nil
	}
}

// slashDone shows what the command printed; a line that was not one
// goes to the model.
func (m *Model) slashDone(d slashDoneMsg) tea.Cmd {
	m.busy, m.cancel = false, nil
	// /model may have switched it; the command has ended, so reading the
	// agent here races with nothing.
	if n, ok := m.o.Loop.(interface{ ModelName() string }); ok && n.ModelName() != "" {
		m.o.Status.Model = n.ModelName()
	}
	switch {
	case !d.ok:
		m.tr.add(&entry{kind: entryUser, text: d.line})
		return m.startTurn(d.line)
	case d.quit:
		return m.quit()
	case strings.TrimSpace(d.out) != "":
		m.tr.add(&entry{kind: entryLines, text: strings.TrimRight(d.out, "\n")})
	}
	return nil
}

// helpText is /help in the full-screen face.
const helpText = `Type a message for the model. At the start of the box:
  !       command mode (amber): Enter runs the line yourself in the sandbox, no approval, no time limit
  ! !     outside mode (red): Enter runs it OUTSIDE the sandbox: it may write anywhere you can
  Backspace at the start, or Delete in an empty box, steps back one mode; a paste never sends
Ctrl-O (or /approvals) lists the requests waiting in ~/.wisp/pending, answered there;
/approvals approve ID [SCOPE], /approvals deny ID answer one by its id, a prefix or its digest
/status, /threads, /new, /compact, /model NAME, /output ID, /tools off and on act as in wisp chat; /clear empties the screen
/undo shows what the last turn changed in the files and asks in a dialog before it takes it back; /redo takes an undo back
Up and Down recall a line in its mode; PgUp and PgDn scroll; Ctrl-C stops the model or a command,
clears the box, or leaves; Ctrl-D in an empty box leaves; /quit leaves`
