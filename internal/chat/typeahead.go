package chat

import (
	"context"

	"github.com/wisp-sh/wisp/internal/approval"
)

// FreshKeys is the chat's terminal dialog. The dialog itself drops what
// was typed before it showed (approval.Terminal), so keys typed ahead
// while the model worked ("yes please" meant for the chat) answer
// nothing; between lines the chat's terminal does not echo them either
// (Editor). While it asks, the face draws nothing in place (a running
// command's live rows would overwrite the dialog); they come back after.
type FreshKeys struct {
	*approval.Terminal
	Face *TerminalFace // nil: nothing is drawn in place to hold
}

// Ask asks about a command, with the face's progress held.
func (k FreshKeys) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	defer k.hold()()
	return k.Terminal.Ask(ctx, req)
}

// AskHost asks about a host a running command wants, with the face's
// progress held.
func (k FreshKeys) AskHost(ctx context.Context, req approval.HostRequest) (approval.Answer, error) {
	defer k.hold()()
	return k.Terminal.AskHost(ctx, req)
}

func (k FreshKeys) hold() func() {
	if k.Face == nil {
		return func() {}
	}
	return k.Face.Hold()
}
