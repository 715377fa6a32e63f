//go:build unix

package pending

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Figures for the target (both at most 20 ms at p99), measured,
// never asserted, with two baselines of the system's own floor (the end of
// this file), as docs/pending.md reports them:
//
//	go test ./pending -run '^$' -bench . -benchtime 200x

// reportLatency reports the p50 and p99 of samples in milliseconds.
func reportLatency(b *testing.B, prefix string, samples []time.Duration) {
	slices.Sort(samples)
	at := func(q float64) float64 {
		return float64(samples[int(q*float64(len(samples)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), prefix+"p50-ms")
	b.ReportMetric(at(0.99), prefix+"p99-ms")
}

// From an answer appearing under its name (the link that publishes it)
// to the waiting Wait returning its decision, one request at a time. The
// answer is written as Answer writes it; its fsync comes before the clock
// starts. As call-, the same from a face calling Answer, fsyncs included:
// what a person waits for after a click.
func BenchmarkAnswerToDecision(b *testing.B) {
	c := New(pendingDir(b))
	var decided, called []time.Duration
	for range b.N {
		decided = append(decided, answerToDecision(b, c, publishAnswer))
		called = append(called, answerToDecision(b, c, func(b *testing.B, c *Channel, p Pending) time.Time {
			start := time.Now()
			if _, err := c.Answer(p, DecisionApprove, ScopeOnce, "bench"); err != nil {
				b.Fatal(err)
			}
			return start
		}))
	}
	b.StopTimer()
	reportLatency(b, "", decided)
	reportLatency(b, "call-", called)
}

// answerToDecision files a request, waits for it in the background, and
// times answer (which says when the clock starts) to the decision.
func answerToDecision(b *testing.B, c *Channel, answer func(*testing.B, *Channel, Pending) time.Time) time.Duration {
	ctx := context.Background()
	f, err := c.File(ctx, commandRequest)
	if err != nil {
		b.Fatal(err)
	}
	p := mustGet(b, c, f.Request.ID)
	done := make(chan time.Time, 1)
	go func() {
		if _, err := f.Wait(ctx); err != nil {
			b.Error(err)
		}
		done <- time.Now()
	}()
	<-f.watching
	start := answer(b, c, p)
	return (<-done).Sub(start)
}

// publishAnswer writes p's answer to a dot-file, fsynced, then links it
// under its name; the clock starts at the link.
func publishAnswer(b *testing.B, c *Channel, p Pending) time.Time {
	data := answerJSON(b, validAnswer(p.Request.ID, p.Binding))
	tmp, err := writeTemp(c.Dir, answerName(p.Request.ID), data)
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(tmp)
	start := time.Now()
	if err := os.Link(tmp, c.answerPath(p.Request.ID)); err != nil {
		b.Fatal(err)
	}
	return start
}

// From a requester calling File (two fsyncs included) to another
// Channel's Watch callback listing the request. Each request is filed into a quiet folder (the
// watcher's settle window has passed), as a person's requests come.
func BenchmarkFiledToListed(b *testing.B) {
	dir := pendingDir(b)
	requester, face := New(dir), New(dir)
	lists := make(chan []Pending, 64)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go face.Watch(ctx, func(l []Pending) { lists <- l })
	waitList(lists, func(l []Pending) bool { return len(l) == 0 })
	var listed []time.Duration
	for range b.N {
		start := time.Now()
		f, err := requester.File(ctx, commandRequest)
		if err != nil {
			b.Fatal(err)
		}
		waitList(lists, func(l []Pending) bool { return len(l) == 1 && l[0].Request.ID == f.Request.ID })
		listed = append(listed, time.Since(start))
		f.Withdraw()
		waitList(lists, func(l []Pending) bool { return len(l) == 0 })
		time.Sleep(face.Settle)
	}
	b.StopTimer()
	reportLatency(b, "", listed)
}

func waitList(lists chan []Pending, ok func([]Pending) bool) {
	for !ok(<-lists) {
	}
}

// Baselines measured in the same run: the floor the OS sets under each
// figure above. From a link under a watched folder to a bare fsnotify
// watcher receiving its event (under BenchmarkAnswerToDecision's p50-ms).
func BenchmarkBaselineLinkToEvent(b *testing.B) {
	baseline(b, func(dir, name string) time.Time {
		tmp, err := writeTemp(dir, name, []byte("{}\n"))
		if err != nil {
			b.Fatal(err)
		}
		defer os.Remove(tmp)
		start := time.Now()
		if err := os.Link(tmp, filepath.Join(dir, name)); err != nil {
			b.Fatal(err)
		}
		return start
	})
}

// From the start of a whole write as File makes it (dot-file, fsync, link,
// folder fsync) to a bare watcher's event (under BenchmarkFiledToListed).
func BenchmarkBaselineWriteToEvent(b *testing.B) {
	baseline(b, func(dir, name string) time.Time {
		start := time.Now()
		if err := writeFile(dir, name, []byte("{}\n"), false); err != nil {
			b.Fatal(err)
		}
		return start
	})
}

func baseline(b *testing.B, publish func(dir, name string) time.Time) {
	dir := pendingDir(b)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		b.Fatal(err)
	}
	var seen []time.Duration
	for i := range b.N {
		name := fmt.Sprintf("%016x%s", i, answerSuffix)
		start := publish(dir, name)
		for ev := range w.Events {
			if filepath.Base(ev.Name) == name && ev.Has(fsnotify.Create) {
				break
			}
		}
		seen = append(seen, time.Since(start))
		os.Remove(filepath.Join(dir, name))
	}
	b.StopTimer()
	reportLatency(b, "", seen)
}
