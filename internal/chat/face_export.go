package chat

import (
	"context"
	"io"

	"github.com/wisp-sh/wisp/internal/agent"
)

// RunSlash runs one of the plain chat's / commands for another face
// (wisp tui), so both offer the same ones from one place: those that act
// on the conversation (/output, /new, /threads, /compact, /model,
// /status) and /approvals with its arguments. What the plain chat would
// print goes to w as its terminal face renders it, without colour. ok is
// false when line is none of them (it is then a message for the model);
// quit when it is /quit. /help and /clear are the caller's: they are about
// its own screen.
func RunSlash(ctx context.Context, a *agent.Agent, approvals *Approvals, status func() []string, line string, w io.Writer) (quit, ok bool) {
	face := NewTerminalFace(w, w, false)
	o := TerminalOptions{Agent: a, Face: face, Approvals: approvals, Status: status}
	if sessionSlash(ctx, o, line) || toolsSlash(a, line, face.Println) {
		return false, true
	}
	return slash(line, approvals, face.Println)
}
