package chat

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/runner"
)

// maxOutputShown bounds what /output writes to the screen; the file
// keeps the rest.
const maxOutputShown = 1 << 20

// clearScreen moves the cursor home and clears the screen and its
// scrollback.
const clearScreen = "\x1b[H\x1b[2J\x1b[3J"

// sessionSlash runs the / commands that act on this conversation; false
// when line is not one of them.
func sessionSlash(ctx context.Context, o TerminalOptions, line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	say := o.Face.Println
	switch fields[0] {
	case "/output":
		if len(fields) != 2 {
			say("· usage: /output ID (the id a command's result names)")
			break
		}
		o.Face.showOutput(o.Agent.o.Tools.Runner.Store, fields[1])
	case "/clear":
		o.Face.Raw(clearScreen)
	case "/new":
		if t := o.Agent.NewThread(); t != nil {
			say("· a new conversation: thread " + t.ID + " (the last one is kept; wisp chat --resume ID goes back)")
		} else {
			say("· a new conversation")
		}
	case "/threads":
		t := o.Agent.Thread()
		if t == nil {
			say("· threads are not recorded here")
			break
		}
		all, err := ListThreads(filepath.Dir(t.Path))
		if err != nil {
			say("· " + err.Error())
			break
		}
		for _, l := range ThreadLines(all, time.Now(), 20) {
			say(l)
		}
	default:
		return false
	}
	return true
}

// showOutput writes a stored output whole, rendered (it is the command's
// text, not wisp's), up to maxOutputShown.
func (f *TerminalFace) showOutput(store *runner.Store, id string) {
	if store == nil {
		f.Println("· there is no output store here")
		return
	}
	if !runner.IDPattern.MatchString(id) {
		f.Println(fmt.Sprintf("· %s is not an output id (they look like 20261014T125100-1a2b3c4d)", render.Line(id)))
		return
	}
	data, err := store.Read(id, 0, maxOutputShown+1)
	if err != nil {
		f.Println("· " + err.Error())
		return
	}
	cut := len(data) > maxOutputShown
	if cut {
		data = data[:maxOutputShown]
	}
	f.mu.Lock()
	f.stopProgress()
	f.md.End()
	f.words.EndLine()
	f.notes.EndLine()
	f.notes.WriteString(string(data))
	f.notes.EndLine()
	f.mu.Unlock()
	if cut {
		f.Println(fmt.Sprintf("· the first MiB is shown; the whole output is %s.log in %s", id, store.Dir))
	}
}

// Raw writes wisp's own control sequence (/clear's) to the notes.
func (f *TerminalFace) Raw(seq string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopProgress()
	f.md.End()
	f.words.EndLine()
	f.notes.EndLine()
	f.notes.Raw(seq)
}
