package tui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// colourSGR matches a colour sequence: 30-37, 40-47, 90-97, 100-107,
// 38;... and 48;... parameters.
var colourSGR = regexp.MustCompile(`\x1b\[(?:[0-9;:]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:[;:][0-9;:]*)?m`)

// do runs what Update asked for, as the program would: a batch's parts,
// and the messages they give back (an Exec, the terminal's, is left).
func do(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			do(m, c)
		}
	case nil:
	default:
		if _, tick := msg.(spinner.TickMsg); !tick {
			_, next := m.Update(msg)
			do(m, next)
		}
	}
}

// press sends keys, running what each asks for.
func press(m *Model, msgs ...tea.Msg) {
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		do(m, cmd)
	}
}

// fakeLoop records what the face asked of the agent.
type fakeLoop struct {
	sent  []string
	typed []agent.Typed
}

func (l *fakeLoop) Send(_ context.Context, text string) error {
	l.sent = append(l.sent, text)
	return nil
}
func (l *fakeLoop) RunTyped(_ context.Context, t agent.Typed) error {
	l.typed = append(l.typed, t)
	return nil
}

// clock is a time the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)} }
func screenOf(m *Model) string       { return ansi.Strip(m.View().Content) }
func feed(m *Model, msgs ...tea.Msg) {
	for _, msg := range msgs {
		m.Update(msg)
	}
}
func newTestModel(colour bool) (*Model, *fakeLoop, *clock) {
	loop, c := &fakeLoop{}, newClock()
	m := NewModel(context.Background(), Options{Loop: loop, Face: NewFace(), Colour: colour, Now: c.now,
		Settle: 500 * time.Millisecond, Status: Status{Model: "granite", Dir: "/home/ana/shop", Sandbox: "Landlock ABI 7", Network: true},
		Home: "/home/ana"})
	feed(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	return m, loop, c
}

// The box shows its mode by its marker alone with NO_COLOR, and by its
// colour with colour on: no colour sequence at all with NO_COLOR.
func TestBoxMarkersWithoutColour(t *testing.T) {
	for _, tc := range []struct {
		keys   []tea.Msg
		marker string
		bg     string // the box's background with colour on
	}{
		{nil, "› ", "48;2;48;48;48"}, {seq("!"), "! ", "48;2;229;165;10"}, {seq("!!"), "!! ", "48;2;210;112;104"},
	} {
		plain, _, _ := newTestModel(false)
		feed(plain, tc.keys...)
		feed(plain, typing("ls")...)
		raw := plain.View().Content
		if colourSGR.MatchString(raw) {
			t.Errorf("with NO_COLOR the screen has a colour: %q", raw)
		}
		if !strings.Contains(raw, "\n"+tc.marker+"ls") {
			t.Errorf("with NO_COLOR the box does not read %q:\n%s", tc.marker+"ls", raw)
		}
		coloured, _, _ := newTestModel(true)
		feed(coloured, tc.keys...)
		if raw := coloured.View().Content; !strings.Contains(raw, tc.bg) {
			t.Errorf("the %q box is not drawn on %s", tc.marker, tc.bg)
		}
	}
}

// The status line says the model's state, the sandbox, the network, the
// count of waiting requests and the folder; the state follows the turn.
func TestStatusLine(t *testing.T) {
	m, loop, c := newTestModel(false)
	last := func() string { // the status, on one line or two
		lines := strings.Split(screenOf(m), "\n")
		return lines[len(lines)-2] + "\n" + lines[len(lines)-1]
	}
	for _, want := range []string{"granite: ready", "sandbox: Landlock ABI 7", "network on", "0 waiting", "~/shop"} {
		if !strings.Contains(last(), want) {
			t.Errorf("status line %q lacks %q", last(), want)
		}
	}
	feed(m, typing("hi")...)
	m.Update(kEnter)
	c.add(3 * time.Second)
	if !strings.Contains(last(), "waiting for the first token 3s") {
		t.Errorf("status line while waiting: %q", last())
	}
	feed(m, evMsg{agent.Event{Type: agent.EventText, Text: "Hel"}})
	if !strings.Contains(last(), "granite: streaming") {
		t.Errorf("status line while streaming: %q", last())
	}
	feed(m, evMsg{agent.Event{Type: agent.EventMessage, Text: "Hello."}}, turnDoneMsg{})
	feed(m, evMsg{agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· the model cannot be reached: connection refused; commands you type after ! and !! still run"}})
	if !strings.Contains(last(), "cannot be reached: connection refused") {
		t.Errorf("status line with the model down: %q", last())
	}
	_ = loop
}

// A message goes to the loop; ! and !! lines are typed lines, shown as
// sent; / commands are the face's own.
func TestSendDispatch(t *testing.T) {
	m, loop, _ := newTestModel(false)
	press(m, seq("fix the tests", kEnter)...)
	if len(loop.sent) != 1 || loop.sent[0] != "fix the tests" {
		t.Fatalf("the message reached the loop as %q", loop.sent)
	}
	// A message's turn runs in the background; the test plays its end.
	m.Update(turnDoneMsg{})
	// A typed line steps aside through tea.Exec: the command it returns.
	m.Update(paste("!!brew upgrade"))
	_, cmd := m.Update(kEnter)
	if cmd == nil {
		t.Fatal("the !! line gave no command to run")
	}
	if !strings.Contains(screenOf(m), "!! brew upgrade") {
		t.Errorf("the sent line is not shown as !! brew upgrade:\n%s", screenOf(m))
	}
	m.Update(turnDoneMsg{})
	feed(m, seq("/help", kEnter)...)
	if !strings.Contains(screenOf(m), "command mode (amber)") || len(loop.sent) != 1 {
		t.Errorf("/help did not show the help, or reached the model (%q)", loop.sent)
	}
}

// Enter while the model answers keeps the line and says why.
func TestEnterWhileBusy(t *testing.T) {
	m, loop, _ := newTestModel(false)
	press(m, seq("one", kEnter, "two", kEnter)...)
	if len(loop.sent) != 1 || m.in.Text() != "two" || !strings.Contains(screenOf(m), "the model is answering") {
		t.Errorf("sent %q, box %q while busy", loop.sent, m.in.Text())
	}
}

// The model's text, its command line and the command's output can only
// draw themselves: their escapes show as escapes on the screen.
func TestOthersTextIsRendered(t *testing.T) {
	m, _, _ := newTestModel(true)
	evil := "\x1b[2J\x1b]0;pwned\x07"
	feed(m,
		evMsg{agent.Event{Type: agent.EventText, Text: "words " + evil}},
		evMsg{agent.Event{Type: agent.EventMessage, Text: "words " + evil}},
		evMsg{agent.Event{Type: agent.EventToolCall, ID: "c1", Name: "run_command", Command: "cat x" + evil}},
		evMsg{agent.Event{Type: agent.EventCommandOutcome, Command: "cat x" + evil, Ran: true, ExitCode: new(int), Output: "out" + evil}},
	)
	raw := m.View().Content
	if strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\x1b]0;") {
		t.Fatalf("someone else's escape reached the screen: %q", raw)
	}
	for _, want := range []string{`words \x1b[2J\x1b]0;pwned\a`, `● cat x\x1b[2J`, `out\x1b[2J`} {
		if !strings.Contains(ansi.Strip(raw), want) {
			t.Errorf("the screen lacks %q:\n%s", want, ansi.Strip(raw))
		}
	}
}

// A resize lays the screen out at the new size: every line fits.
func TestResize(t *testing.T) {
	m, _, _ := newTestModel(false)
	feed(m, evMsg{agent.Event{Type: agent.EventMessage, Text: strings.Repeat("word ", 100)}})
	for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 12}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(screenOf(m), "\n")
		if len(lines) != size[1] {
			t.Errorf("at %dx%d the screen has %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("at %dx%d a line is %d wide: %q", size[0], size[1], w, l)
			}
		}
	}
}

// A model's command is one card from its call to its end: the gate's
// start, its live output, its exit and its sandbox: line; another tool's
// card ends with its result's first line.
func TestModelCommandCard(t *testing.T) {
	m, _, c := newTestModel(false)
	zero := 0
	feed(m,
		evMsg{agent.Event{Type: agent.EventToolCall, ID: "c1", Name: "run_command", Command: "go test ./..."}},
		evMsg{agent.Event{Type: agent.EventCommandStart, Command: "go test ./...", Origin: "model"}},
		evMsg{agent.Event{Type: agent.EventOutput, Origin: "model", Text: "ok  \tshop\t0.1s\n"}},
	)
	c.add(1500 * time.Millisecond)
	screen := screenOf(m)
	for _, want := range []string{"● go test ./...", "running 1.5s", "│ ok      shop"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the running card lacks %q:\n%s", want, screen)
		}
	}
	feed(m,
		evMsg{agent.Event{Type: agent.EventCommandOutcome, Command: "go test ./...", Origin: "model", Ran: true, ExitCode: &zero,
			Output: "ok  \tshop\t0.1s\n", SandboxLine: "sandbox: refused writing to /etc/x", Notes: []string{"· refused writing to /etc/x"}}},
		evMsg{agent.Event{Type: agent.EventToolResult, ID: "c1", Name: "run_command", Text: "ok"}},
		evMsg{agent.Event{Type: agent.EventToolCall, ID: "c2", Name: "read_file", Arguments: `{"path":"go.mod"}`}},
		evMsg{agent.Event{Type: agent.EventToolResult, ID: "c2", Name: "read_file", Text: "module shop\n\ngo 1.26"}},
	)
	screen = screenOf(m)
	for _, want := range []string{"exit 0 · 1.5s", "sandbox: refused writing to /etc/x", `● read_file {"path":"go.mod"}`, "⎿ module shop …"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the ended cards lack %q:\n%s", want, screen)
		}
	}
	if strings.Count(screen, "● go test") != 1 || strings.Contains(screen, "running") {
		t.Errorf("the command is not one ended card:\n%s", screen)
	}
}

// A command the lists refuse ends its card with the refusal, the rule
// named.
func TestRefusedCommandCard(t *testing.T) {
	m, _, _ := newTestModel(false)
	feed(m,
		evMsg{agent.Event{Type: agent.EventToolCall, ID: "c1", Name: "run_command", Command: "wisp tui"}},
		evMsg{agent.Event{Type: agent.EventCommandOutcome, Command: "wisp tui", Origin: "model",
			Notes: []string{"· blocked by policy: nested-wisp: starts another wisp agent inside this one"}}},
	)
	if s := screenOf(m); !strings.Contains(s, "· blocked by policy: nested-wisp") || strings.Count(s, "blocked by policy") != 1 {
		t.Errorf("the refused card:\n%s", s)
	}
}

// The same transitions through the program's Update, as bubbletea
// delivers keys and pastes, and the box as the screen draws it.
func TestModelUpdateModes(t *testing.T) {
	for _, tc := range modeCases {
		t.Run(tc.name, func(t *testing.T) {
			m, loop, _ := newTestModel(false)
			press(m, tc.keys...)
			if m.in.Mode != tc.mode || m.in.Text() != tc.text || len(loop.sent) > 0 {
				t.Fatalf("box is %s %q (sent %q), want %s %q", m.in.Mode, m.in.Text(), loop.sent, tc.mode, tc.text)
			}
			lines := strings.Split(screenOf(m), "\n")
			box := lines[len(lines)-1-len(m.statusLines())] // above the status
			if first, _, _ := strings.Cut(tc.text, "\n"); !strings.HasPrefix(box, tc.mode.Marker()+" "+first) &&
				!strings.Contains(tc.text, "\n") {
				t.Errorf("the box reads %q, want %q", box, tc.mode.Marker()+" "+first)
			}
		})
	}
}

// The terminal's background picks the palette unless ui.theme did.
func TestBackgroundPicksThePalette(t *testing.T) {
	light := tea.BackgroundColorMsg{Color: color.White}
	m, _, _ := newTestModel(true)
	m.Update(light)
	if m.palette.Name != "light" {
		t.Errorf("a white background gave the %s palette", m.palette.Name)
	}
	m.o.Theme = "dark"
	m.Update(light)
	if m.palette.Name != "light" { // unchanged: the theme was set after
		t.Errorf("palette %s", m.palette.Name)
	}
	themed := NewModel(context.Background(), Options{Loop: &fakeLoop{}, Face: NewFace(), Theme: "dark", Colour: true})
	themed.Update(light)
	if themed.palette.Name != "dark" {
		t.Errorf("ui.theme dark gave the %s palette on a white background", themed.palette.Name)
	}
}

// emittingLoop runs a typed line as chat's does: the OUTSIDE mark, then
// the command's output.
type emittingLoop struct{ face *Face }

func (l emittingLoop) Send(context.Context, string) error { return nil }
func (l emittingLoop) RunTyped(_ context.Context, t agent.Typed) error {
	l.face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelDanger, Text: "! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can"})
	l.face.Emit(agent.Event{Type: agent.EventCommandStart, Command: t.Command, Origin: "person", OutsideSandbox: true})
	l.face.Emit(agent.Event{Type: agent.EventOutput, Text: "\x1b[1mbold\x1b[0m output\r\n"})
	return nil
}

// While a typed command has the terminal, the face writes to it the line,
// the OUTSIDE mark in the danger colour before the command starts, and
// the command's own output as it came; then it takes the terminal back.
func TestTypedRunWritesToTheTerminal(t *testing.T) {
	f := NewFace()
	st := newStyles(render.Dark, true)
	var out strings.Builder
	r := &typedRun{ctx: context.Background(), loop: emittingLoop{f}, t: agent.Typed{Command: "touch /x", OutsideSandbox: true}, face: f, st: st}
	r.SetStdout(&out)
	r.Run()
	got := out.String()
	mark := st.danger.Render("! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can")
	i, j := strings.Index(got, "!! touch /x"), strings.Index(got, mark)
	if i < 0 || j < i || !strings.Contains(got, "\x1b[1mbold\x1b[0m output\r\n") || !strings.Contains(mark, "255;107;107") {
		t.Errorf("the terminal got %q", got)
	}
	f.Emit(agent.Event{Type: agent.EventOutput, Text: "later"})
	if strings.Contains(out.String(), "later") {
		t.Error("the face kept writing to the terminal after the command")
	}
}

// chat's / commands run through Options.Slash and show what they print;
// a line that is none of them goes to the model; /clear and /help are
// the screen's own.
func TestSlashCommands(t *testing.T) {
	m, loop, _ := newTestModel(false)
	var asked []string
	m.o.Slash = func(_ context.Context, line string, w io.Writer) (bool, bool) {
		asked = append(asked, line)
		if line == "/status" {
			io.WriteString(w, "model:     granite\nfolder:    /p\x1b[2J\n")
			return false, true
		}
		return false, false
	}
	press(m, seq("/status", kEnter)...)
	press(m, evMsgs(m)...)
	if s := screenOf(m); !strings.Contains(s, "model:     granite") || !strings.Contains(s, `folder:    /p\x1b[2J`) {
		t.Errorf("/status did not show what it printed, escaped:\n%s", s)
	}
	press(m, seq("/etc/hosts is odd", kEnter)...)
	press(m, evMsgs(m)...)
	if len(loop.sent) != 1 || loop.sent[0] != "/etc/hosts is odd" {
		t.Errorf("a path reached the model as %q", loop.sent)
	}
	m.Update(turnDoneMsg{})
	press(m, seq("/clear", kEnter)...)
	if s := screenOf(m); strings.Contains(s, "granite\n") || strings.Contains(s, "/etc/hosts") || len(asked) != 2 {
		t.Errorf("/clear left the transcript (asked %q):\n%s", asked, s)
	}
}

// evMsgs takes what the face queued (the background's messages), as the
// program's pump would deliver them.
func evMsgs(m *Model) []tea.Msg {
	f := m.o.Face
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.queue
	f.queue = nil
	return q
}

// Ctrl-C at an empty box says how to leave; a second one leaves; a key
// between starts over. With text, it clears the box.
func TestCtrlCTwiceLeaves(t *testing.T) {
	m, _, _ := newTestModel(false)
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	feed(m, typing("x")...)
	if _, cmd := m.Update(ctrlC); cmd != nil || !m.in.Empty() {
		t.Fatalf("Ctrl-C with text: box %q", m.in.Text())
	}
	if _, cmd := m.Update(ctrlC); cmd != nil || !strings.Contains(screenOf(m), quitHint) {
		t.Fatalf("the first Ctrl-C at an empty box left, or said nothing:\n%s", screenOf(m))
	}
	feed(m, typing("a")...)
	m.Update(kBackspace)
	if _, cmd := m.Update(ctrlC); cmd != nil {
		t.Fatal("a Ctrl-C after other keys left at once")
	}
	if _, cmd := m.Update(ctrlC); cmd == nil {
		t.Fatal("the second Ctrl-C did not leave")
	}
}

// PgUp scrolls up to the transcript's first line and no further; PgDn
// comes back down.
func TestScroll(t *testing.T) {
	m, _, _ := newTestModel(false)
	for i := range 60 {
		feed(m, evMsg{agent.Event{Type: agent.EventNote, Level: agent.LevelInfo, Text: fmt.Sprintf("· note %02d", i)}})
	}
	pgup, pgdown := tea.KeyPressMsg{Code: tea.KeyPgUp}, tea.KeyPressMsg{Code: tea.KeyPgDown}
	for range 20 {
		m.Update(pgup)
		screenOf(m)
	}
	s := screenOf(m)
	if !strings.Contains(s, "· note 00") || !strings.Contains(s, "scrolled up") {
		t.Fatalf("PgUp did not reach the top:\n%s", s)
	}
	m.Update(pgdown)
	if s2 := screenOf(m); strings.Contains(s2, "· note 00") {
		t.Errorf("one PgDn from the top still shows the top:\n%s", s2)
	}
	for range 20 {
		m.Update(pgdown)
	}
	if s3 := screenOf(m); !strings.Contains(s3, "· note 59") || strings.Contains(s3, "scrolled up") {
		t.Errorf("PgDn did not come back down:\n%s", s3)
	}
}

// The count follows the watcher; a watcher that fails says so, and the
// count shows as not known.
func TestWaitingCount(t *testing.T) {
	m, _, _ := newTestModel(false)
	feed(m, pendingMsg{list: []pending.Pending{{}, {Answered: true}, {}}})
	if s := screenOf(m); !strings.Contains(s, "2 waiting") {
		t.Errorf("two waiting, one answered:\n%s", s)
	}
	feed(m, pendingMsg{err: errors.New("too many open files")})
	if s := screenOf(m); !strings.Contains(s, "? waiting") || !strings.Contains(s, "not live: too many open files") {
		t.Errorf("after the watcher failed:\n%s", s)
	}
}
