package agent

import (
	"path/filepath"
	"testing"
	"time"
)

// A wisp respond the model never answered leaves a thread whose message
// was dropped: it counts no message, so --resume passes it by for the
// conversation the person had, and lists can leave it out.
func TestAFailedAttemptIsNoConversationToResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "threads")
	clock := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	write := func(records ...Record) string {
		th, err := CreateThread(dir, now, Record{Dir: "/p", Model: "m", Face: "respond"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range records {
			if err := th.Append(r); err != nil {
				t.Fatal(err)
			}
		}
		th.Close()
		return th.ID
	}
	had := write(Record{Kind: RecordUser, Text: "fix the tests"}, Record{Kind: RecordAssistant, Text: "done"},
		Record{Kind: RecordUser, Text: "and the docs"}, Record{Kind: RecordModelError, Text: "down", Dropped: true})
	failed := write(Record{Kind: RecordUser, Text: "hello"}, Record{Kind: RecordModelError, Text: "down", Dropped: true})
	all, err := ListThreads(dir)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]ThreadInfo{}
	for _, ti := range all {
		byID[ti.ID] = ti
	}
	if ti := byID[failed]; ti.Messages != 0 || ti.First != "" {
		t.Errorf("the failed attempt reads %+v, want no message", ti)
	}
	if ti := byID[had]; ti.Messages != 1 || ti.First != "fix the tests" {
		t.Errorf("the conversation reads %+v, want its one answered message", ti)
	}
	if id, err := LatestThreadIn(dir, "/p"); err != nil || id != had {
		t.Errorf("--resume picks %q (%v), want the conversation %q, not the failed attempt %q", id, err, had, failed)
	}
}
