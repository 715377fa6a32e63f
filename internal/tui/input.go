package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Mode is the input box's state (docs/decisions.md, D28): what Enter does
// with the text.
type Mode int

const (
	Normal  Mode = iota // a message for the model (or a / command)
	Command             // ! : a command the person runs in the sandbox
	Outside             // !! : a command the person runs outside the sandbox
)

// Marker is what the box shows before the text; with NO_COLOR it alone
// tells the modes apart.
func (m Mode) Marker() string {
	switch m {
	case Command:
		return "!"
	case Outside:
		return "!!"
	}
	return "›"
}

func (m Mode) String() string {
	switch m {
	case Command:
		return "command"
	case Outside:
		return "outside"
	}
	return "normal"
}

// Recall is the history of sent lines, newest at 0 (*chat.History).
type Recall interface {
	Len() int
	At(i int) string
	Add(line string)
}

// Sent is a line the box sent.
type Sent struct {
	Mode Mode
	Text string // what the box showed after its marker
	// Line is what the agent reads: the message, !TEXT, ! !TEXT (command-mode
	// text that starts with !, run in the sandbox as the amber box
	// showed), or !!TEXT.
	Line string
}

// Shown is how the sent line reads in the transcript: "! command",
// "!! command", or the message.
func (s Sent) Shown() string {
	if s.Mode == Normal {
		return s.Text
	}
	return s.Mode.Marker() + " " + s.Text
}

// Input is the box at the bottom: its mode, its text and cursor, and
// recall through the history. Keys and pastes reach it through Update.
type Input struct {
	Mode   Mode
	text   []rune
	cursor int // index into text
	// Hint is a line shown above the box for the last key's effect (the
	// honest box's second Enter); cleared by the next key.
	Hint string

	hist   Recall
	recall int // -1: the draft; else the history entry shown
	draft  draftState
}

type draftState struct {
	mode Mode
	text []rune
}

// NewInput makes an empty normal box recalling from hist (may be nil).
func NewInput(hist Recall) *Input { return &Input{hist: hist, recall: -1} }

// Text is the box's text, without the marker.
func (in *Input) Text() string { return string(in.text) }

// Cursor is the cursor's index in Text's runes.
func (in *Input) Cursor() int { return in.cursor }

// Empty says whether the box holds no text (in any mode).
func (in *Input) Empty() bool { return len(in.text) == 0 }

// Set puts text in the box in mode, the cursor at its end.
func (in *Input) Set(mode Mode, text string) {
	in.Mode, in.text = mode, []rune(text)
	in.cursor = len(in.text)
}

// Update applies a key or a paste; it returns the line sent by Enter, if
// one was. A paste never sends: its newlines are text.
func (in *Input) Update(msg tea.Msg) *Sent {
	in.Hint = ""
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.paste(msg.Content)
	case tea.KeyPressMsg:
		return in.key(msg)
	}
	return nil
}

func (in *Input) key(k tea.KeyPressMsg) *Sent {
	switch k.String() {
	case "enter":
		return in.enter()
	case "backspace", "ctrl+h":
		in.backspace()
	case "delete", "ctrl+d":
		in.delete()
	case "left", "ctrl+b":
		in.cursor = max(0, in.cursor-1)
	case "right", "ctrl+f":
		in.cursor = min(len(in.text), in.cursor+1)
	case "home", "ctrl+a":
		in.cursor = 0
	case "end", "ctrl+e":
		in.cursor = len(in.text)
	case "ctrl+u":
		in.text, in.cursor = in.text[in.cursor:], 0
	case "ctrl+k":
		in.text = in.text[:in.cursor]
	case "up", "ctrl+p":
		in.older()
	case "down", "ctrl+n":
		in.newer()
	default:
		if k.Text != "" && k.Mod&^tea.ModShift == 0 {
			in.typed(k.Text)
		}
	}
	return nil
}

// typed is a printable key: ! at the start steps up a mode, as long as
// there is one above.
func (in *Input) typed(s string) {
	if s == "!" && in.cursor == 0 && in.Mode < Outside {
		in.Mode++
		return
	}
	in.insert(s)
}

// paste steps up one mode for each ! it starts with, as typing them at the
// start would, and inserts the rest as text.
func (in *Input) paste(s string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	if in.cursor == 0 {
		for strings.HasPrefix(s, "!") && in.Mode < Outside {
			in.Mode++
			s = s[1:]
		}
	}
	in.insert(s)
}

func (in *Input) insert(s string) {
	r := []rune(s)
	text := make([]rune, 0, len(in.text)+len(r))
	text = append(append(append(text, in.text[:in.cursor]...), r...), in.text[in.cursor:]...)
	in.text, in.cursor = text, in.cursor+len(r)
}

// backspace at the start steps back one mode, keeping the text.
func (in *Input) backspace() {
	if in.cursor == 0 {
		in.stepBack()
		return
	}
	in.text = append(in.text[:in.cursor-1:in.cursor-1], in.text[in.cursor:]...)
	in.cursor--
}

// delete in an empty box steps back one mode.
func (in *Input) delete() {
	if len(in.text) == 0 {
		in.stepBack()
		return
	}
	if in.cursor < len(in.text) {
		in.text = append(in.text[:in.cursor:in.cursor], in.text[in.cursor+1:]...)
	}
}

func (in *Input) stepBack() {
	if in.Mode > Normal {
		in.Mode--
	}
}

// enter sends the box's line, except normal text that starts with !!
// (pasted after a space, the space then taken away): that is not sent
// unseen as a message but put into outside mode, for a second Enter.
func (in *Input) enter() *Sent {
	text := string(in.text)
	switch {
	case in.Mode == Normal && strings.TrimSpace(text) == "":
		return nil
	case in.Mode == Normal && strings.HasPrefix(text, "!!"):
		in.Set(Outside, text[2:])
		in.Hint = "this line runs OUTSIDE the sandbox: Enter again to run it, Backspace at the start to step back"
		return nil
	}
	s := &Sent{Mode: in.Mode, Text: text, Line: lineOf(in.Mode, text)}
	// The history is chat's too, where a line that starts with ! is a
	// command: a message that does would come back as one, so it is not
	// kept.
	if in.hist != nil && !(in.Mode == Normal && strings.HasPrefix(text, "!")) {
		in.hist.Add(s.Line)
	}
	in.Set(Normal, "")
	in.recall = -1
	return s
}

// lineOf is the line the agent reads for text sent in mode (agent.ParseTyped).
func lineOf(mode Mode, text string) string {
	switch {
	case mode == Command && strings.HasPrefix(text, "!"):
		return "! " + text
	case mode == Command:
		return "!" + text
	case mode == Outside:
		return "!!" + text
	}
	return text
}

// modeOf reads a sent line back into the mode it was sent from.
func modeOf(line string) (Mode, string) {
	switch {
	case strings.HasPrefix(line, "!!"):
		return Outside, strings.TrimSpace(line[2:])
	case strings.HasPrefix(line, "!"):
		return Command, strings.TrimSpace(line[1:])
	}
	return Normal, line
}

// older recalls the line before the one shown, keeping the draft.
func (in *Input) older() {
	if in.hist == nil || in.recall+1 >= in.hist.Len() {
		return
	}
	if in.recall == -1 {
		in.draft = draftState{mode: in.Mode, text: append([]rune(nil), in.text...)}
	}
	in.recall++
	in.Set(modeOf(in.hist.At(in.recall)))
}

// newer recalls the line after the one shown, and at the end the draft.
func (in *Input) newer() {
	if in.recall < 0 {
		return
	}
	in.recall--
	if in.recall == -1 {
		in.Set(in.draft.mode, string(in.draft.text))
		return
	}
	in.Set(modeOf(in.hist.At(in.recall)))
}
