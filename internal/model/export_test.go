package model

import "time"

// WithWaits shortens the client's waits for tests: how soon and how often
// a wait is reported, and the poll of a loading server.
func WithWaits(statusAfter, statusEvery, loadingPoll time.Duration) Option {
	return func(s *settings) {
		s.waits = waits{statusEvery: statusEvery, statusAfter: statusAfter, loadingPoll: loadingPoll}
	}
}
