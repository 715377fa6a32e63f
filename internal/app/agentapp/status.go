package agentapp

import (
	"context"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/chat"
)

// CheckBeside checks the model while the prompt waits: a failure is
// written above the line being typed, or as a note if none is.
func (c *Conversation) CheckBeside(ctx context.Context, face *chat.TerminalFace, ed *chat.Editor) {
	if c.Client == nil {
		return
	}
	c.setState("being checked")
	note, state := ModelCheck(ctx, c.Client)
	if note == "" {
		state = "answers, and has the model"
	}
	c.setState(state)
	if note == "" || ctx.Err() != nil {
		return
	}
	ed.Notify(face.NoteLine(agent.LevelWarning, note), func() {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: note})
	})
}

func (c *Conversation) setState(s string) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

// Status is what /status says that only the command knows: the server
// and the model's state, the threshold that applies.
func (c *Conversation) Status(s *app.Session) []string {
	c.mu.Lock()
	state := c.state
	c.mu.Unlock()
	var lines []string
	if c.Client != nil {
		if state == "" {
			state = "not checked yet"
		}
		lines = append(lines, "server:    "+c.Client.BaseURL()+" · "+state)
	}
	return append(lines, "threshold: "+s.Threshold().String())
}
