package landlock

import (
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// ShortenServeTimeouts makes the served helper's deadlines short for one
// test.
func ShortenServeTimeouts(t *testing.T, start, done time.Duration) {
	oldStart, oldDone := startReplyTimeout, doneReplyGrace
	startReplyTimeout, doneReplyGrace = start, done
	t.Cleanup(func() { startReplyTimeout, doneReplyGrace = oldStart, oldDone })
}

// ServingPid is the served helper's pid as wisp sees it (in its own PID
// namespace it is 1 to itself and its commands).
func ServingPid(s sandbox.Server) int { return s.(*helperClient).servingPid }

// SecretOnAQuietWay is secretOnAQuietWay, for the served helper's tests.
func SecretOnAQuietWay(t testing.TB) (dir, secret string) { return secretOnAQuietWay(t) }
