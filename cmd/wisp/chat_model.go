//go:build !wisplean

package main

import (
	"context"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/chat"
)

// checkBeside checks the model while the prompt waits: a failure is
// written above the line being typed, or as a note if none is.
func (c *conversation) checkBeside(ctx context.Context, face *chat.TerminalFace, ed *chat.Editor) {
	if c.client == nil {
		return
	}
	c.setState("being checked")
	note, state := modelCheck(ctx, c.client)
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

func (c *conversation) setState(s string) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

// status is what /status says that only the command knows: the server
// and the model's state, the threshold that applies.
func (c *conversation) status(s *session) []string {
	c.mu.Lock()
	state := c.state
	c.mu.Unlock()
	var lines []string
	if c.client != nil {
		if state == "" {
			state = "not checked yet"
		}
		lines = append(lines, "server:    "+c.client.BaseURL()+" · "+state)
	}
	return append(lines, "threshold: "+s.threshold().String())
}
