package tui

import (
	"context"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/pending"
)

// Loop is what the face drives of the agent (*agent.Agent): a message's
// turn and a typed line, one at a time.
type Loop interface {
	Send(ctx context.Context, text string) error
	RunTyped(ctx context.Context, t agent.Typed) error
}

// Options make the face.
type Options struct {
	Loop    Loop
	Face    *Face
	History Recall           // nil: no recall
	Channel *pending.Channel // the pending channel: the list and its count; nil: none
	Status  Status
	// Sandbox, when set, says what confines commands here ("Landlock ABI
	// 7"); it may take a moment, so it runs after the screen is up.
	Sandbox func() string
	Theme   string // ui.theme: dark, light, or "" to follow the terminal
	Colour  bool   // false with NO_COLOR or TERM=dumb: the markers alone tell the modes
	Home    string // the person's home, shown as ~
	// Settle is how long the OUTSIDE dialog ignores keys after it shows;
	// 0 is approval.OutsideSettle.
	Settle time.Duration
	Now    func() time.Time // nil: time.Now
	// Slash runs chat's / commands (chat.RunSlash); nil: only the face's
	// own (/help, /clear, /quit, /approvals).
	Slash func(ctx context.Context, line string, w io.Writer) (quit, ok bool)
}

// Model is the full-screen face as a bubbletea model.
type Model struct {
	o       Options
	ctx     context.Context
	in      *Input
	tr      *Transcript
	st      styles
	palette Palette
	spin    spinner.Model

	width, height int
	scroll        int // lines up from the bottom

	busy     bool // a turn or a typed command runs
	cancel   context.CancelFunc
	state    modelState
	dialogs  []*dialog // the first is on screen
	list     *requestList
	waiting  int // requests in the pending channel, from its watcher
	quitting bool
	leaving  bool // Ctrl-C at an empty box: the next leaves
	topShown bool // the last frame showed the transcript's first line: PgUp goes no further
}

// NewModel makes the face's model. ctx ends the turns it starts.
func NewModel(ctx context.Context, o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Settle <= 0 {
		o.Settle = approval.OutsideSettle
	}
	m := &Model{o: o, ctx: ctx, in: NewInput(o.History), tr: &Transcript{}, width: 80, height: 24,
		spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
	m.setPalette(PaletteFor(o.Theme, true))
	return m
}

func (m *Model) setPalette(p Palette) {
	m.palette, m.st = p, newStyles(p, m.o.Colour)
	for _, e := range m.tr.entries {
		e.width = 0
	}
}

// Init asks the terminal for its background and what confines commands.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.o.Sandbox != nil {
		probe := m.o.Sandbox
		cmds = append(cmds, func() tea.Msg { return sandboxMsg{probe()} })
	}
	return tea.Batch(cmds...)
}

// sandboxMsg says what confines commands, once it is known.
type sandboxMsg struct{ label string }

// turnDoneMsg ends a turn or a typed command.
type turnDoneMsg struct{}

// settledMsg redraws the OUTSIDE dialog once it listens.
type settledMsg struct{}

// Update is bubbletea's: one message in, the model changed, what to do
// next out.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if m.dialogs == nil && m.list == nil {
			m.in.Update(msg)
		}
	case tea.WindowSizeMsg:
		m.width, m.height = max(20, msg.Width), max(8, msg.Height)
	case tea.BackgroundColorMsg:
		if m.o.Theme != "dark" && m.o.Theme != "light" {
			m.setPalette(PaletteFor("", msg.IsDark()))
		}
	case evMsg:
		m.event(msg.ev)
	case askMsg:
		return m, m.ask(msg)
	case closeMsg:
		return m, m.withdraw(msg)
	case pendingMsg:
		if msg.err != nil {
			m.waiting = -1
			m.tr.add(&entry{kind: entryNote, level: agent.LevelWarning,
				text: "· the count of waiting requests is not live: " + msg.err.Error() + "; Ctrl-O still lists them"})
			break
		}
		m.pendingChanged(msg.list)
	case backMsg:
		return m, tea.ClearScreen
	case sandboxMsg:
		m.o.Status.Sandbox = msg.label
	case slashDoneMsg:
		return m, m.slashDone(msg)
	case undoAskMsg:
		return m, m.undoAsk(msg.q)
	case undoDoneMsg:
		m.undoDone(msg)
	case turnDoneMsg:
		m.busy, m.cancel = false, nil
		m.state.turnEnded()
		m.tr.closeWords()
		if m.quitting {
			return m, tea.Quit
		}
	case spinner.TickMsg:
		if !m.busy {
			return m, nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	}
	return m, nil
}

// key goes to the dialog when one is open, then the list, then the keys
// of the screen, then the box.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case len(m.dialogs) > 0:
		return m.dialogKey(k)
	case m.list != nil:
		if m.list.key(k, m.o.Channel) {
			m.list = nil
		}
		return nil
	}
	key := k.String()
	if key != "ctrl+c" {
		m.leaving = false
	}
	switch key {
	case "ctrl+c":
		return m.interrupt()
	case "ctrl+d":
		if m.in.Empty() && m.in.Mode == Normal {
			return m.quit()
		}
	case "pgup":
		if !m.topShown {
			m.scroll += max(1, m.transcriptHeight()-2)
		}
		return nil
	case "pgdown":
		m.scroll = max(0, m.scroll-max(1, m.transcriptHeight()-2))
		return nil
	case "ctrl+o":
		m.openList()
		return nil
	case "enter":
		if m.busy {
			m.in.Hint = "the model is answering: wait for it, or Ctrl-C to stop it"
			return nil
		}
	}
	if s := m.in.Update(k); s != nil {
		m.scroll = 0
		return m.send(*s)
	}
	return nil
}

// interrupt is Ctrl-C: it stops the turn, else clears the box; at an
// empty box it says how to leave, and a second one leaves.
func (m *Model) interrupt() tea.Cmd {
	switch {
	case m.busy && m.cancel != nil:
		m.cancel()
		return nil
	case !m.in.Empty() || m.in.Mode != Normal:
		m.in.Set(Normal, "")
		return nil
	case m.leaving:
		return m.quit()
	}
	m.leaving = true
	m.in.Hint = quitHint
	return nil
}

// quitHint answers Ctrl-C at an empty box, as the plain chat does.
const quitHint = "to leave, press Ctrl-C again, or Ctrl-D, or type /quit"

func (m *Model) quit() tea.Cmd {
	if m.busy {
		m.quitting = true
		if m.cancel != nil {
			m.cancel()
		}
		return nil
	}
	return tea.Quit
}

// send acts on a line the box sent: a typed command runs through the
// agent as chat's ! and !! do; a / command; else a message for the model.
func (m *Model) send(s Sent) tea.Cmd {
	if t, ok := agent.ParseTyped(s.Line); ok && s.Mode != Normal {
		m.tr.add(&entry{kind: entrySent, sent: s})
		return m.runTyped(t)
	}
	if f := strings.Fields(s.Line); len(f) == 1 && (f[0] == "/undo" || f[0] == "/redo") {
		if cmd, ok := m.runUndo(f[0]); ok {
			return cmd
		}
	}
	if cmd, ok := m.slash(s.Line); ok {
		return cmd
	}
	m.tr.add(&entry{kind: entryUser, text: s.Text})
	return m.startTurn(s.Line)
}

// startTurn gives the model the message in the background; the turn's
// end comes through the face, after every event of the turn.
func (m *Model) startTurn(text string) tea.Cmd {
	ctx, cancel := context.WithCancel(m.ctx)
	m.busy, m.cancel = true, cancel
	m.state.turnStarted(m.o.Now())
	loop, face := m.o.Loop, m.o.Face
	run := func() tea.Msg {
		loop.Send(ctx, text)
		cancel()
		face.post(turnDoneMsg{})
		return nil
	}
	return tea.Batch(run, m.spin.Tick)
}

func (m *Model) openList() {
	if m.o.Channel == nil {
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· no pending channel here: the list of requests is not offered"})
		return
	}
	m.list = openList(m.o.Channel)
}

func (m *Model) pendingChanged(list []pending.Pending) {
	n := 0
	for _, p := range list {
		if !p.Answered {
			n++
		}
	}
	m.waiting = n
	if m.list != nil {
		m.list.refresh(list)
	}
}

// ask queues a question; the first waiting is on screen.
func (m *Model) ask(a askMsg) tea.Cmd {
	m.dialogs = append(m.dialogs, newDialog(a.req, a.host, a.reply, m.o.Now(), m.o.Settle))
	if len(m.dialogs) == 1 {
		return m.settleTick()
	}
	return nil
}

func (m *Model) settleTick() tea.Cmd {
	if len(m.dialogs) == 0 || !m.dialogs[0].req.OutsideSandbox {
		return nil
	}
	return tea.Tick(m.o.Settle, func(time.Time) tea.Msg { return settledMsg{} })
}

func (m *Model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialogs[0]
	if d.undo != nil {
		return m.undoKey(d, k)
	}
	ans, ok := d.key(k, m.o.Now())
	if !ok {
		return nil
	}
	d.reply <- ans
	m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: answerNote(d, ans)})
	return m.nextDialog()
}

// nextDialog shows the next question, its settle time starting now.
func (m *Model) nextDialog() tea.Cmd {
	m.dialogs = m.dialogs[1:]
	if len(m.dialogs) == 0 {
		m.dialogs = nil
		return nil
	}
	m.dialogs[0].open(m.o.Now(), m.o.Settle)
	return m.settleTick()
}

// withdraw closes the question of id, if it waits, and says who
// answered it or why it went.
func (m *Model) withdraw(c closeMsg) tea.Cmd {
	m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: c.why})
	for i, d := range m.dialogs {
		switch {
		case d.req.ID != c.id:
			continue
		case i == 0:
			return m.nextDialog()
		}
		m.dialogs = append(m.dialogs[:i:i], m.dialogs[i+1:]...)
		break
	}
	return nil
}
