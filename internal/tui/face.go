package tui

import (
	"context"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
)

// Face is agent.Face for the full screen: each event becomes a message for
// the program, in order. Emit never blocks (the agent's goroutine, a
// command's output and the gate's approvers call it), so a queue holds
// what the program has not taken yet: while a typed command has the
// terminal, the program takes nothing until it is back.
type Face struct {
	mu     sync.Mutex
	queue  []tea.Msg
	wake   chan struct{}
	aside  io.Writer // the terminal, while a typed command has it
	styles styles
}

// NewFace makes a face; events wait until Attach.
func NewFace() *Face { return &Face{wake: make(chan struct{}, 1)} }

// evMsg is one event of the loop.
type evMsg struct{ ev agent.Event }

// Emit queues the event. While a typed command has the terminal, what the
// person must read before it starts (the OUTSIDE mark) and its output go
// to the terminal as well, as in the plain chat: the output is their
// program's, on its pseudo-terminal.
func (f *Face) Emit(ev agent.Event) {
	f.mu.Lock()
	if w := f.aside; w != nil {
		switch ev.Type {
		case agent.EventOutput:
			io.WriteString(w, ev.Text)
		case agent.EventNote:
			st := f.styles.dim
			if ev.Level == agent.LevelDanger {
				st = f.styles.danger
			}
			io.WriteString(w, st.Render(render.Line(ev.Text))+"\r\n")
		}
	}
	f.mu.Unlock()
	f.post(evMsg{ev})
}

// post queues any message for the program.
func (f *Face) post(m tea.Msg) {
	f.mu.Lock()
	f.queue = append(f.queue, m)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// setAside hands the face the terminal a typed command runs on (nil:
// the program has it back).
func (f *Face) setAside(w io.Writer, st styles) {
	f.mu.Lock()
	f.aside, f.styles = w, st
	f.mu.Unlock()
}

// pump gives the program the queued messages in order until ctx ends.
func (f *Face) pump(ctx context.Context, send func(tea.Msg)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.wake:
		}
		for {
			f.mu.Lock()
			if len(f.queue) == 0 {
				f.mu.Unlock()
				break
			}
			m := f.queue[0]
			f.queue[0] = nil
			f.queue = f.queue[1:]
			f.mu.Unlock()
			send(m)
		}
	}
}

// Approver is the dialog as one of the gate's approvers: it asks in a
// modal over the transcript, at the same time as the others (the pending
// channel, when approval.outOfBand is on). The first answer wins; a
// question answered elsewhere, or withdrawn, leaves the dialog saying so.
type Approver struct {
	Face *Face
}

var _ approval.Approver = (*Approver)(nil)

func (a *Approver) Name() string      { return "tui" }
func (a *Approver) AsksAPerson() bool { return true }

// askMsg opens the dialog for req; the answer goes to reply.
type askMsg struct {
	req   approval.Request
	host  string // AskHost's HOST:PORT
	reply chan approval.Answer
}

// closeMsg withdraws the dialog of id, saying why.
type closeMsg struct{ id, why string }

// Ask opens the dialog and waits for the person, or for ctx: another face
// answered first, or the turn was stopped.
func (a *Approver) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	return a.ask(ctx, askMsg{req: req})
}

var _ approval.HostApprover = (*Approver)(nil)

// AskHost asks about a connection to a host in neither domain list, for
// the command whose connection the proxy holds.
func (a *Approver) AskHost(ctx context.Context, req approval.HostRequest) (approval.Answer, error) {
	return a.ask(ctx, askMsg{host: req.Target(), req: approval.Request{
		ID: req.ID, Line: req.Line, Dir: req.Dir, Scopes: req.Scopes,
		Reasons: []string{"the command connects to " + req.Target() + ", which neither domain list names"},
	}})
}

func (a *Approver) ask(ctx context.Context, msg askMsg) (approval.Answer, error) {
	req := msg.req
	reply := make(chan approval.Answer, 1)
	msg.reply = reply
	a.Face.post(msg)
	select {
	case ans := <-reply:
		if other, ok := approval.AnsweredElsewhere(ctx); ok {
			a.Face.post(closeMsg{id: req.ID, why: "· the first answer came from elsewhere and stands: " + approval.Describe(other)})
		}
		return ans, nil
	case <-ctx.Done():
		why := "· withdrawn: the turn was stopped before anyone answered"
		if other, ok := approval.AnsweredElsewhere(ctx); ok {
			why = "· answered elsewhere: " + approval.Describe(other)
		}
		a.Face.post(closeMsg{id: req.ID, why: why})
		return approval.Answer{}, ctx.Err()
	}
}
