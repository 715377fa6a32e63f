package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Keys as the terminal sends them, by name.
var (
	kEnter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	kBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
	kDelete    = tea.KeyPressMsg{Code: tea.KeyDelete}
	kHome      = tea.KeyPressMsg{Code: tea.KeyHome}
	kLeft      = tea.KeyPressMsg{Code: tea.KeyLeft}
	kUp        = tea.KeyPressMsg{Code: tea.KeyUp}
	kDown      = tea.KeyPressMsg{Code: tea.KeyDown}
)

// typing is s typed key by key.
func typing(s string) []tea.Msg {
	var msgs []tea.Msg
	for _, r := range s {
		msgs = append(msgs, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return msgs
}

func paste(s string) tea.Msg { return tea.PasteMsg{Content: s} }

func seq(parts ...any) []tea.Msg {
	var msgs []tea.Msg
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			msgs = append(msgs, typing(p)...)
		case tea.Msg:
			msgs = append(msgs, p)
		}
	}
	return msgs
}

type fakeHistory struct{ lines []string } // oldest first

func (h *fakeHistory) Len() int        { return len(h.lines) }
func (h *fakeHistory) At(i int) string { return h.lines[len(h.lines)-1-i] }
func (h *fakeHistory) Add(line string) { h.lines = append(h.lines, line) }
func (h *fakeHistory) last() (s string) {
	if len(h.lines) > 0 {
		s = h.lines[len(h.lines)-1]
	}
	return s
}

// modeCases are every transition of decision D28, each paste
// case and the cursor's part in them: the box's mode and text after the
// keys.
var modeCases = []struct {
	name string
	keys []tea.Msg
	mode Mode
	text string
}{
	{"text stays normal", seq("ls"), Normal, "ls"},
	{"! at the start enters command mode", seq("!"), Command, ""},
	{"! ! enters outside mode", seq("!!"), Outside, ""},
	{"! in outside mode at the start is text", seq("!!!"), Outside, "!"},
	{"! after text is text", seq("a!"), Normal, "a!"},
	{"! in command mode after text is text", seq("!ls !x"), Command, "ls !x"},
	{"! at the start of a box with text, cursor at home", seq("ls", kHome, "!"), Command, "ls"},
	{"! with the cursor not at the start is text", seq("ls", kLeft, "!"), Normal, "l!s"},
	{"backspace at the start: outside to command", seq("!!ls", kHome, kBackspace), Command, "ls"},
	{"backspace at the start: command to normal", seq("!ls", kHome, kBackspace), Normal, "ls"},
	{"backspace twice from outside to normal, text kept", seq("!!ls", kHome, kBackspace, kBackspace), Normal, "ls"},
	{"backspace at the start of normal does nothing", seq("ls", kHome, kBackspace), Normal, "ls"},
	{"backspace in the text deletes", seq("!ls", kBackspace), Command, "l"},
	{"backspace deletes the text, then steps back", seq("!!x", kBackspace, kBackspace), Command, ""},
	{"delete in an empty outside box: command", seq("!!", kDelete), Command, ""},
	{"delete in an empty command box: normal", seq("!", kDelete), Normal, ""},
	{"delete with text deletes under the cursor", seq("!ls", kHome, kDelete), Command, "s"},
	{"delete at the end of text does nothing", seq("!ls", kDelete), Command, "ls"},
	{"paste !!x into an empty box: outside with x", seq(paste("!!x")), Outside, "x"},
	{"paste !x into an empty box: command with x", seq(paste("!x")), Command, "x"},
	{"paste !x at the start in command mode: outside with x", seq("!", paste("!x")), Outside, "x"},
	{"paste !!!x: outside with !x", seq(paste("!!!x")), Outside, "!x"},
	{"paste !x in outside mode: text", seq("!!", paste("!x")), Outside, "!x"},
	{"paste !!x after a space: normal text", seq(" ", paste("!!x")), Normal, " !!x"},
	{"paste !x in the middle: text", seq("ab", kLeft, paste("!x")), Normal, "a!xb"},
	{"paste at the start of text steps up", seq("ls", kHome, paste("!!")), Outside, "ls"},
	{"paste with newlines keeps them as text", seq(paste("a\r\nb\rc")), Normal, "a\nb\nc"},
}

func TestInputModes(t *testing.T) {
	for _, tc := range modeCases {
		t.Run(tc.name, func(t *testing.T) {
			in := NewInput(nil)
			for _, m := range tc.keys {
				if s := in.Update(m); s != nil {
					t.Fatalf("sent %+v without an Enter", s)
				}
			}
			if in.Mode != tc.mode || in.Text() != tc.text {
				t.Errorf("box is %s %q, want %s %q", in.Mode, in.Text(), tc.mode, tc.text)
			}
		})
	}
}

// A paste never sends, however many newlines it holds; the typed Enter
// after it sends it whole.
func TestInputPasteNeverSends(t *testing.T) {
	in := NewInput(nil)
	if s := in.Update(paste("look:\n!!touch /tmp/x\r\n")); s != nil {
		t.Fatalf("the paste sent %+v", s)
	}
	s := in.Update(kEnter)
	if s == nil || s.Mode != Normal || s.Line != "look:\n!!touch /tmp/x\n" {
		t.Fatalf("Enter after the paste sent %+v, want the paste as one message", s)
	}
}

// What Enter sends in each mode, how it shows in the transcript, and the
// two cases that keep the box honest.
func TestInputSentLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keys  []tea.Msg
		sent  *Sent // nil: nothing sent
		mode  Mode  // the box after the Enter
		text  string
		shown string
	}{
		{"a message", seq("hello", kEnter), &Sent{Normal, "hello", "hello"}, Normal, "", "hello"},
		{"an empty box sends nothing", seq(kEnter), nil, Normal, "", ""},
		{"blanks send nothing", seq("  ", kEnter), nil, Normal, "  ", ""},
		{"a command", seq("!ls -l", kEnter), &Sent{Command, "ls -l", "!ls -l"}, Normal, "", "! ls -l"},
		{"outside", seq("!!brew upgrade", kEnter), &Sent{Outside, "brew upgrade", "!!brew upgrade"}, Normal, "", "!! brew upgrade"},
		{"honest: command text starting with ! runs in the sandbox",
			seq("!", "a!x", kHome, kDelete, kEnter), &Sent{Command, "!x", "! !x"}, Normal, "", "! !x"},
		{"honest: normal text starting with !! goes to outside mode, unsent",
			seq(" ", paste("!!rm x"), kHome, kDelete, kEnter), nil, Outside, "rm x", ""},
		{"honest: the second Enter runs it outside",
			seq(" ", paste("!!rm x"), kHome, kDelete, kEnter, kEnter), &Sent{Outside, "rm x", "!!rm x"}, Normal, "", "!! rm x"},
		{"an empty command box sends a bare !", seq("!", kEnter), &Sent{Command, "", "!"}, Normal, "", "! "},
		{"a message that starts with ! is a message", seq(" ", paste("!x"), kHome, kDelete, kEnter), &Sent{Normal, "!x", "!x"}, Normal, "", "!x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHistory{}
			in := NewInput(h)
			var sent *Sent
			for _, m := range tc.keys {
				if s := in.Update(m); s != nil {
					sent = s
				}
			}
			switch {
			case tc.sent == nil && sent != nil:
				t.Fatalf("sent %+v, want nothing", sent)
			case tc.sent != nil && (sent == nil || *sent != *tc.sent):
				t.Fatalf("sent %+v, want %+v", sent, tc.sent)
			case sent != nil && sent.Shown() != tc.shown:
				t.Errorf("shown %q, want %q", sent.Shown(), tc.shown)
			case sent != nil && sent.Mode == Normal && strings.HasPrefix(sent.Text, "!") && h.Len() != 0:
				t.Errorf("a message that starts with ! was kept for recall, where it would come back as a command: %q", h.last())
			case sent != nil && !(sent.Mode == Normal && strings.HasPrefix(sent.Text, "!")) && h.last() != sent.Line:
				t.Errorf("history %q, want %q", h.last(), sent.Line)
			}
			if in.Mode != tc.mode || in.Text() != tc.text {
				t.Errorf("box after is %s %q, want %s %q", in.Mode, in.Text(), tc.mode, tc.text)
			}
		})
	}
}

// Up and Down bring a line back in the mode it was sent from, and the
// draft back after the newest.
func TestInputRecall(t *testing.T) {
	h := &fakeHistory{lines: []string{"hello", "!ls", "! !x", "!!brew upgrade"}}
	in := NewInput(h)
	for _, m := range seq("!", "dra") {
		in.Update(m)
	}
	steps := []struct {
		key  tea.Msg
		mode Mode
		text string
	}{
		{kUp, Outside, "brew upgrade"},
		{kUp, Command, "!x"},
		{kUp, Command, "ls"},
		{kUp, Normal, "hello"},
		{kUp, Normal, "hello"}, // the oldest stays
		{kDown, Command, "ls"},
		{kDown, Command, "!x"},
		{kDown, Outside, "brew upgrade"},
		{kDown, Command, "dra"}, // the draft, in its mode
		{kDown, Command, "dra"},
	}
	for i, st := range steps {
		in.Update(st.key)
		if in.Mode != st.mode || in.Text() != st.text {
			t.Fatalf("step %d: box is %s %q, want %s %q", i, in.Mode, in.Text(), st.mode, st.text)
		}
	}
	// A recalled line sent again is the same line: ! !x stays in the sandbox.
	in.Update(kUp)
	in.Update(kUp)
	if s := in.Update(kEnter); s == nil || s.Line != "! !x" {
		t.Errorf("the recalled ! !x was sent as %+v", s)
	}
}
