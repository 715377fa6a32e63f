package chat

import (
	"slices"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
)

// wisp threads and /threads list the conversations, and only count the
// failed attempts that kept no message.
func TestThreadLinesLeaveOutFailedAttempts(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	all := []agent.ThreadInfo{
		{ID: "20261201T115900-aaaaaaaa", Dir: "/p", Modified: now.Add(-time.Minute)},
		{ID: "20261201T115800-bbbbbbbb", Dir: "/p", Modified: now.Add(-2 * time.Minute)},
		{ID: "20261201T110000-cccccccc", Dir: "/p", Modified: now.Add(-time.Hour), First: "fix the tests", Messages: 26},
	}
	want := []string{"20261201T110000-cccccccc    1h  /p  fix the tests",
		"· 2 threads with no message the model answered are not listed"}
	if got := ThreadLines(all, now, 0); !slices.Equal(got, want) {
		t.Errorf("ThreadLines =\n%q\nwant\n%q", got, want)
	}
	if got := ThreadLines(nil, now, 0); !slices.Equal(got, []string{"· no threads yet"}) {
		t.Errorf("no threads: %q", got)
	}
}
