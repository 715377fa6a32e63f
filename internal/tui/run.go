package tui

import (
	"context"
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/pending"
)

// RunOptions are what Run needs beyond the model's options: the
// terminal.
type RunOptions struct {
	Options
	In  io.Reader // nil: stdin
	Out io.Writer // nil: stdout
}

// Run shows the face until the person leaves or ctx ends. The face's
// events reach the program in order; the pending channel's watcher keeps
// the count of waiting requests live.
func Run(ctx context.Context, o RunOptions) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := NewModel(ctx, o.Options)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}
	if o.In != nil {
		opts = append(opts, tea.WithInput(o.In))
	}
	if o.Out != nil {
		opts = append(opts, tea.WithOutput(o.Out))
	}
	p := tea.NewProgram(m, opts...)
	go o.Face.pump(ctx, p.Send)
	if o.Channel != nil {
		go watchPending(ctx, o.Channel, o.Face)
	}
	_, err := p.Run()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the full-screen face failed: %w", err)
	}
	return nil
}

// watchPending keeps the count of waiting requests live; a watcher that
// cannot start or fails says so, and the status line says the count is
// not known.
func watchPending(ctx context.Context, ch *pending.Channel, f *Face) {
	err := ch.Watch(ctx, func(list []pending.Pending) { f.post(pendingMsg{list: list}) })
	if err != nil && ctx.Err() == nil {
		f.post(pendingMsg{err: err})
	}
}
