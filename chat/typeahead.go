package chat

import (
	"context"
	"os"

	"github.com/wisp-sh/wisp/approval"
)

// FreshKeys asks on the terminal only with what is typed after the
// question shows: keys typed ahead while the model worked ("yes please"
// meant for the chat) are dropped first, so none answers a dialog the
// person has not read.
type FreshKeys struct{ *approval.Terminal }

// Ask drops the typed-ahead input, then asks.
func (f FreshKeys) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	_ = dropTypeAhead(f.TTY) // best effort: without it, the dialog still asks
	return f.Terminal.Ask(ctx, req)
}

func dropTypeAhead(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var flushErr error
	if err := rc.Control(func(fd uintptr) { flushErr = flushInput(int(fd)) }); err != nil {
		return err
	}
	return flushErr
}
