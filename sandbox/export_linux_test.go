package sandbox

import (
	"testing"
	"time"
)

// ShortenServeTimeouts makes the served helper's deadlines short for one
// test.
func ShortenServeTimeouts(t *testing.T, start, done time.Duration) {
	oldStart, oldDone := startReplyTimeout, doneReplyGrace
	startReplyTimeout, doneReplyGrace = start, done
	t.Cleanup(func() { startReplyTimeout, doneReplyGrace = oldStart, oldDone })
}
