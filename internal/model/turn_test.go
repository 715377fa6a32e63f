package model_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

const loadingBody = `{"error":{"message":"Loading model","type":"unavailable_error","code":503}}`

// statuses collects what WithStatusNotice reports, from any goroutine.
type statuses struct {
	mu   sync.Mutex
	seen []model.Status
	each func(model.Status)
}

func (s *statuses) report(st model.Status) {
	s.mu.Lock()
	s.seen = append(s.seen, st)
	s.mu.Unlock()
	if s.each != nil {
		s.each(st)
	}
}

func (s *statuses) all() []model.Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]model.Status(nil), s.seen...)
}

func TestTurnWaitsForALoadingModelAndSaysSo(t *testing.T) {
	loading := modeltest.Turn{Status: 503, ErrorBody: loadingBody}
	srv := modeltest.NewServer(t, loading, loading, loading, loading, loading, modeltest.Turn{Text: []string{"Done."}})
	var st statuses
	c := newClient(t, srv.URL(), model.WithStatusNotice(st.report), model.WithMaxRetries(1),
		model.WithWaits(time.Hour, time.Hour, 5*time.Millisecond))
	res, err := c.Turn(t.Context(), model.Request{Messages: ask("hi")})
	if err != nil || res.Message.Content != "Done." {
		t.Fatalf("Turn = %q, %v; want the answer after the model loaded", res.Message.Content, err)
	}
	got := st.all()
	if len(got) != 5 || !got[4].Loading || !res.Waited.Loading {
		t.Fatalf("statuses %+v, waited %+v; want five loading statuses", got, res.Waited)
	}
	if n := strings.TrimSpace(got[0].Notice()); !strings.HasPrefix(n, "loading the model · ") {
		t.Errorf("notice %q, want \"loading the model · …\"", n)
	}
}

func TestTurnStopsWaitingForALoadingModelOnCtrlC(t *testing.T) {
	var turns []modeltest.Turn
	for range 1000 {
		turns = append(turns, modeltest.Turn{Status: 503, ErrorBody: loadingBody})
	}
	srv := modeltest.NewServer(t, turns...)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := statuses{each: func(s model.Status) {
		if s.Loading {
			cancel()
		}
	}}
	c := newClient(t, srv.URL(), model.WithStatusNotice(st.report), model.WithWaits(time.Hour, time.Hour, time.Minute))
	r := returnsSoon(t, func() error { _, err := c.Turn(ctx, model.Request{Messages: ask("hi")}); return err })
	if !errors.Is(r, context.Canceled) {
		t.Errorf("err = %v, want the request was cancelled", r)
	}
}

func TestTurnReportsASilentFirstByteAndStopsOnCtrlC(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{WaitFor: filepath.Join(t.TempDir(), "never")})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := statuses{each: func(model.Status) { cancel() }}
	// The idle timeout is shorter than the wait: it must not cover the
	// first byte.
	c := newClient(t, srv.URL(), model.WithStatusNotice(st.report), model.WithIdleTimeout(time.Millisecond),
		model.WithWaits(20*time.Millisecond, 10*time.Millisecond, time.Minute))
	err := returnsSoon(t, func() error { _, err := c.Turn(ctx, model.Request{Messages: ask("hi")}); return err })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the request was cancelled (and not a stall after 1ms)", err)
	}
	if got := st.all(); len(got) == 0 || got[0].Elapsed < 20*time.Millisecond {
		t.Errorf("statuses %+v, want one after 20ms of silence", got)
	}
}

func TestTurnGivesUpAfterTheFirstByteTimeout(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{WaitFor: filepath.Join(t.TempDir(), "never")})
	c := newClient(t, srv.URL(), model.WithFirstByteTimeout(100*time.Millisecond), model.WithIdleTimeout(10*time.Millisecond))
	err := returnsSoon(t, func() error { _, err := c.Turn(t.Context(), model.Request{Messages: ask("hi")}); return err })
	if !errors.Is(err, model.ErrStalled) || !strings.Contains(err.Error(), "sent nothing for 100ms after the request") {
		t.Errorf("err = %v, want ErrStalled after the first-byte timeout", err)
	}
}

// Text that may be a call written as text is held back, but all of it
// reaches OnDelta in the end, in order, when it is not a call.
func TestTurnHoldsBackOnlyWhatMayBeACall(t *testing.T) {
	for _, pieces := range [][]string{
		{"```", "go\nfmt.Println()\n", "```"},
		{"{\"files\":", " [\"go.mod\"]}"},
		{"\n", "<tool", "_call> is how Qwen writes calls"},
		{"Sure", ", here it is."},
	} {
		srv := modeltest.NewServer(t, modeltest.Turn{Text: pieces})
		var got []string
		res, err := newClient(t, srv.URL()).Turn(t.Context(), model.Request{Messages: ask("hi"), Tools: []model.Tool{runCommand},
			OnDelta: func(d model.Delta) { got = append(got, d.Text) }})
		want := strings.Join(pieces, "")
		if err != nil || res.Message.Content != want || strings.Join(got, "") != want || len(res.Message.ToolCalls) != 0 {
			t.Errorf("pieces %q: content %q, deltas %q, calls %v, %v; want the text as sent", pieces, res.Message.Content, got, res.Message.ToolCalls, err)
		}
	}
}

// Thinking that looked like the start of a call and then closed an
// orphan </think> is thinking, said once, and never shown as answer.
func TestTurnRetractsOnlyWhatItShowed(t *testing.T) {
	for _, tc := range []struct {
		pieces    []string
		retracted string
	}{
		{[]string{"{thinking", " more}\n</think>\n\nRun ls."}, ""},
		{[]string{"I should", " list.\n", "</think>Run ls."}, "I should list.\n"},
	} {
		srv := modeltest.NewServer(t, modeltest.Turn{Text: tc.pieces})
		var text, retracted, thinking strings.Builder
		res, err := newClient(t, srv.URL()).Turn(t.Context(), model.Request{Messages: ask("hi"), Tools: []model.Tool{runCommand},
			OnDelta: func(d model.Delta) {
				switch d.Kind {
				case model.DeltaText:
					text.WriteString(d.Text)
				case model.DeltaRetract:
					retracted.WriteString(d.Text)
				case model.DeltaReasoning:
					thinking.WriteString(d.Text)
				}
			}})
		whole := strings.Join(tc.pieces, "")
		wantThinking := whole[:strings.Index(whole, "</think>")]
		if err != nil || res.Message.Content != "Run ls." || res.Reasoning != wantThinking ||
			text.String() != tc.retracted+"Run ls." || retracted.String() != tc.retracted || thinking.Len() != 0 {
			t.Errorf("pieces %q: content %q, reasoning %q, shown %q, retracted %q, %v", tc.pieces,
				res.Message.Content, res.Reasoning, text.String(), retracted.String(), err)
		}
	}
}

// Stream keeps today's contract: an empty answer is no error; Turn says.
func TestStreamKeepsItsContractTurnSaysEmpty(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{}, modeltest.Turn{})
	c := newClient(t, srv.URL())
	if _, err := c.Stream(t.Context(), ask("hi"), nil, nil); err != nil {
		t.Errorf("Stream of an empty answer: %v, want no error", err)
	}
	_, err := c.Turn(t.Context(), model.Request{Messages: ask("hi")})
	if !errors.Is(err, model.ErrEmptyAnswer) || len(model.Hints(err)) == 0 {
		t.Errorf("Turn of an empty answer: %v (hints %q), want ErrEmptyAnswer with hints", err, model.Hints(err))
	}
}

// The scripted server's Reasoning is the thinking a face is shown apart.
func TestTurnReadsTheScriptedServersReasoning(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Reasoning: []string{"Okay, ", "ls."}, Text: []string{"Run ls."}})
	var thinking strings.Builder
	res, err := newClient(t, srv.URL()).Turn(t.Context(), model.Request{Messages: ask("hi"),
		OnDelta: func(d model.Delta) {
			if d.Kind == model.DeltaReasoning {
				thinking.WriteString(d.Text)
			}
		}})
	if err != nil || res.Message.Content != "Run ls." || res.Reasoning != "Okay, ls." || thinking.String() != "Okay, ls." {
		t.Errorf("Turn = %q, reasoning %q (OnDelta %q), %v", res.Message.Content, res.Reasoning, thinking.String(), err)
	}
}
