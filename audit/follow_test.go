package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// following runs follow in the background and hands its records over a
// channel; stop cancels it and returns what follow returned.
type following struct {
	records chan Record
	done    chan error
	cancel  context.CancelFunc
	once    sync.Once
	err     error
}

func startFollowing(t *testing.T, home config.Home, f Filter) *following {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	fl := &following{records: make(chan Record), done: make(chan error, 1), cancel: cancel}
	ready := make(chan struct{})
	go func() {
		fl.done <- follow(ctx, home, f, func(r Record) error {
			select {
			case fl.records <- r:
			case <-ctx.Done():
			}
			return nil
		}, func() { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-fl.done:
		t.Fatalf("follow ended before it was ready: %v", err)
	}
	t.Cleanup(func() { fl.stop() })
	return fl
}

func (fl *following) stop() error {
	fl.once.Do(func() {
		fl.cancel()
		fl.err = <-fl.done
	})
	return fl.err
}

// next waits for the next record; the test's own deadline bounds the wait.
func (fl *following) next(t *testing.T) Record {
	t.Helper()
	select {
	case r := <-fl.records:
		return r
	case err := <-fl.done:
		t.Fatalf("follow ended: %v", err)
	}
	return Record{}
}

func seqOf(r Record) int {
	n, _ := r.Fields["seq"].(json.Number).Int64()
	return int(n)
}

// TestFollowAcrossRotations: with Since set, Follow passes on the backlog,
// then each new line as it is written, through a rotation every few
// batches, each exactly once and in order.
func TestFollowAcrossRotations(t *testing.T) {
	home := testHome(t)
	l := New(home, "s", 1, nil)
	l.rotateAt, l.keep = 2000, 50
	defer l.Close()
	seq := 0
	for ; seq < 5; seq++ {
		mustLog(t, l, seqEvent{Seq: seq, Pad: "backlog"})
	}
	fl := startFollowing(t, home, Filter{Since: time.Unix(0, 0), Event: "test.seq"})
	for want := range 5 {
		if got := seqOf(fl.next(t)); got != want {
			t.Fatalf("backlog record %d has seq %d", want, got)
		}
	}
	for batch := range 20 {
		first := seq
		for range 4 {
			mustLog(t, l, seqEvent{Seq: seq, Pad: fmt.Sprintf("batch %d", batch)})
			mustLog(t, l, CommandTyped{Command: "filtered out"})
			seq++
		}
		for want := first; want < seq; want++ {
			if got := seqOf(fl.next(t)); got != want {
				t.Fatalf("batch %d: got seq %d, want %d", batch, got, want)
			}
		}
	}
	if names, _ := logNames(home.LogsDir()); len(names) < 10 {
		t.Errorf("only %d files: the test needs rotations while following", len(names))
	}
	if err := fl.stop(); err != nil {
		t.Errorf("Follow returned %v when its context ended, want nil", err)
	}
}

// TestFollowNewOnly: without Since, what was written before is not passed
// on; and Follow waits for a log that does not exist yet.
func TestFollowNewOnly(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before int
	}{{"existing log", 3}, {"no log yet", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			home := testHome(t)
			l := New(home, "s", 1, nil)
			defer l.Close()
			for i := range tc.before {
				mustLog(t, l, seqEvent{Seq: -1 - i})
			}
			fl := startFollowing(t, home, Filter{})
			mustLog(t, l, seqEvent{Seq: 7})
			if got := seqOf(fl.next(t)); got != 7 {
				t.Errorf("first record followed has seq %d, want 7", got)
			}
		})
	}
}

// TestFollowReportsDamage: a bad line written while following is reported
// and skipped, and the next good one still arrives.
func TestFollowReportsDamage(t *testing.T) {
	home := testHome(t)
	l := New(home, "s", 1, nil)
	defer l.Close()
	mustLog(t, l, seqEvent{Seq: 0})
	bad := make(chan Malformed, 1)
	fl := startFollowing(t, home, Filter{OnMalformed: func(m Malformed) { bad <- m }})
	l.mu.Lock()
	appendLine(l.file, []byte("garbage\n"))
	l.mu.Unlock()
	mustLog(t, l, seqEvent{Seq: 1})
	if got := seqOf(fl.next(t)); got != 1 {
		t.Errorf("got seq %d, want 1", got)
	}
	if m := <-bad; m.Line != 1 || m.File != "audit.jsonl" {
		t.Errorf("malformed %v, want audit.jsonl line 1 (counted from where following began)", m)
	}
}
