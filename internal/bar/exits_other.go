//go:build !linux

package bar

import "github.com/wisp-sh/wisp/pending"

// exitWatch is not had here: the Bar lists the folder at each age refresh
// while something waits, which is when a requester's death shows.
type exitWatch struct{}

func newExitWatch(ended func()) *exitWatch { return nil }

func (w *exitWatch) sync(live map[pending.Requester]bool) bool { return false }

func (w *exitWatch) stopAll() {}
