package chat

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/runner"
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
		o.Face.showOutput(o.Agent.Runner().Store, fields[1])
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
		all, err := agent.ListThreads(filepath.Dir(t.Path))
		if err != nil {
			say("· " + err.Error())
			break
		}
		for _, l := range ThreadLines(all, time.Now(), 20) {
			say(l)
		}
	case "/compact":
		if o.Agent.Model() == nil {
			say("· there is no model to summarise with: " + o.Agent.NoModel())
			break
		}
		turn(ctx, o.Interrupts, func(ctx context.Context) {
			if !o.Agent.Compact(ctx) {
				say("· nothing to compact: the conversation has one turn or none")
			}
		})
	case "/model":
		switchModel(ctx, o, fields[1:])
	case "/undo", "/redo":
		undoSlash(ctx, o, fields)
	case "/status":
		for _, l := range status(o) {
			say(l)
		}
	default:
		return false
	}
	return true
}

// switchModel is /model NAME: another model on the same server, for this
// session, checked first: a name the server does not have keeps the
// model the person had.
func switchModel(ctx context.Context, o TerminalOptions, args []string) {
	say := o.Face.Println
	c, ok := o.Agent.Model().(*model.Client)
	switch {
	case len(args) != 1:
		say("· usage: /model NAME (for this session; wisp config set model.name NAME keeps it)")
		return
	case !ok:
		say("· there is no model client here to switch")
		return
	}
	next := c.WithName(args[0])
	checkCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := next.Check(checkCtx)
	if errors.Is(err, model.ErrModelMissing) {
		// The server said it lacks the name: switching would only fail
		// at the next message.
		say("· " + render.Line(err.Error()))
		say("· the model stays " + render.Line(c.Name()))
		return
	}
	o.Agent.SetModel(next)
	say("· the model is " + render.Line(next.Name()) + " for this session (model.name is unchanged)")
	if err != nil {
		say("· " + render.Line(err.Error()))
	}
}

// status is /status: the model, where commands run and write, the
// network, the threshold, what waits, the thread and the context.
func status(o TerminalOptions) []string {
	a := o.Agent
	r := a.Runner()
	name := a.ModelName()
	if name == "" {
		name = "none: " + a.NoModel()
	}
	lines := []string{"model:     " + render.Line(name)}
	if o.Status != nil {
		lines = append(lines, o.Status()...)
	}
	lines = append(lines, "folder:    "+render.Line(r.Dir))
	if r.Resolve(false) == runner.ModeConfined {
		lines = append(lines, "roots:     "+render.Line(strings.Join(r.Spec.Roots, ", ")))
	} else {
		lines = append(lines, "roots:     none: commands are not confined here")
	}
	network := "off"
	if r.NetworkOn() {
		network = "on"
	}
	lines = append(lines, "network:   "+network)
	if o.Approvals != nil {
		if waiting, err := o.Approvals.Channel.List(); err == nil {
			lines = append(lines, fmt.Sprintf("waiting:   %d requests (/approvals lists them)", len(waiting)))
		}
	}
	if t := a.Thread(); t != nil {
		state := "recorded"
		if !t.Written() {
			state = "not recorded until the first message"
		}
		lines = append(lines, "thread:    "+t.ID+" ("+state+")")
	}
	used, budget := a.ContextUse()
	lines = append(lines, fmt.Sprintf("context:   about %d of %d tokens for the conversation (model.contextTokens)", used, budget))
	return lines
}

// showOutput writes a stored output whole, rendered (it is the command's
// text, not wisp's), up to maxOutputShown.
func (f *TerminalFace) showOutput(store *runner.Store, id string) {
	if store == nil {
		f.Println("· there is no output store here")
		return
	}
	if !runner.ValidID(id) {
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
