package tui

import (
	"strings"
	"time"
)

// entryKind is what one entry of the transcript is.
type entryKind int

const (
	entryUser  entryKind = iota // a message the person sent
	entryWords                  // the model's words, Markdown
	entrySent                   // a ! or !! line the person sent
	entryCard                   // a command or another tool call
	entryNote                   // a note, a warning, an error
	entryLines                  // lines of wisp's own (help)
)

// entry is one thing in the transcript. Its layout is kept for the width
// it was made at until the entry changes; a running card is laid out
// again at each frame it is on screen (its spinner and time move).
type entry struct {
	kind  entryKind
	text  string
	level string // a note's: agent.LevelInfo, LevelWarning, LevelDanger
	sent  Sent
	card  *card
	open  bool // words still streaming

	width int      // of the layout kept; 0: none
	lines []string // the layout kept
}

// card is a command (or a tool call) with what came of it.
type card struct {
	id, name, command, args string
	person, outside         bool // typed after ! / !!
	asksOutside             bool // the model asked to run it outside the sandbox
	started, ended          time.Time
	running                 bool
	cleared                 bool   // the gate let it run: its clock is the command's
	live                    []byte // a typed command's output as it came
	output                  string // the model's command's output, the bounded view
	ran                     bool
	exit                    int
	notRun                  string   // why it did not run
	notes                   []string // the person's · lines
	sandboxLine             string
	result                  string // another tool's result, its first line
}

// Transcript is the conversation as the screen shows it.
type Transcript struct {
	entries []*entry
}

// Len is the number of entries.
func (t *Transcript) Len() int { return len(t.entries) }

func (t *Transcript) add(e *entry) *entry {
	t.entries = append(t.entries, e)
	return e
}

func (t *Transcript) last() *entry {
	if len(t.entries) == 0 {
		return nil
	}
	return t.entries[len(t.entries)-1]
}

// words appends streamed words to the open words entry, or opens one.
func (t *Transcript) words(s string) {
	if e := t.last(); e != nil && e.kind == entryWords && e.open {
		e.text += s
		e.width = 0
		return
	}
	t.add(&entry{kind: entryWords, text: s, open: true})
}

// message closes the streaming words with the whole answer.
func (t *Transcript) message(s string) {
	if e := t.last(); e != nil && e.kind == entryWords && e.open {
		e.text, e.open, e.width = s, false, 0
		return
	}
	t.add(&entry{kind: entryWords, text: s})
}

// closeWords ends a stream that ended without its message (a stop).
func (t *Transcript) closeWords() {
	if e := t.last(); e != nil && e.kind == entryWords {
		e.open = false
	}
}

// runningCard is the newest card still running whose command is line
// ("" for any), or nil.
func (t *Transcript) runningCard(line string) *entry {
	for i := len(t.entries) - 1; i >= 0 && i >= len(t.entries)-64; i-- {
		e := t.entries[i]
		if e.kind == entryCard && e.card.running && (line == "" || e.card.command == line) {
			return e
		}
	}
	return nil
}

// cardByID is the card of tool call id, among the newest entries.
func (t *Transcript) cardByID(id string) *entry {
	for i := len(t.entries) - 1; i >= 0 && i >= len(t.entries)-64; i-- {
		if e := t.entries[i]; e.kind == entryCard && e.card.id == id {
			return e
		}
	}
	return nil
}

// window lays out only what the screen shows: from the newest entry up,
// until height lines above the bottom offset by scroll are filled. It
// returns the lines top first, whether any lie above them, and scroll as
// it applies: a scroll past the top shows the top.
func (t *Transcript) window(height, scroll int, lay func(*entry) []string) (lines []string, above bool, applied int) {
	need := height + scroll
	var chunks [][]string
	got := 0
	i := len(t.entries) - 1
	for ; i >= 0 && got < need; i-- {
		l := lay(t.entries[i])
		chunks = append(chunks, l)
		got += len(l)
	}
	all := make([]string, 0, got)
	for j := len(chunks) - 1; j >= 0; j-- {
		all = append(all, chunks[j]...)
	}
	if i < 0 { // everything is laid out: the top is known
		scroll = min(scroll, max(0, len(all)-height))
	}
	end := max(0, len(all)-scroll)
	start := max(0, end-height)
	return all[start:end], i >= 0 || start > 0, scroll
}

// lastLines is the tail of s: at most n lines, the cut said.
func lastLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		cut := len(lines) - n
		return append([]string{"… " + itoa(cut) + " lines above"}, lines[cut:]...)
	}
	return lines
}
