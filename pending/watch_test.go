//go:build unix

package pending

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// watcher runs Watch in the background and hands each list it is called
// with to the test.
type watcher struct {
	lists  chan []Pending
	cancel context.CancelFunc
	done   chan error
}

func startWatch(t *testing.T, c *Channel, also func([]Pending)) *watcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{lists: make(chan []Pending, 1024), cancel: cancel, done: make(chan error, 1)}
	go func() {
		w.done <- c.Watch(ctx, func(list []Pending) {
			if also != nil {
				also(list)
			}
			w.lists <- list
		})
	}()
	t.Cleanup(w.stop)
	return w
}

func (w *watcher) stop() {
	w.cancel()
	<-w.done
	w.done <- nil
}

// until waits for a list for which ok holds.
func (w *watcher) until(t *testing.T, what string, ok func([]Pending) bool) []Pending {
	t.Helper()
	guard := time.After(30 * time.Second) // a hang guard, not a timing assertion
	for {
		select {
		case list := <-w.lists:
			if ok(list) {
				return list
			}
		case <-guard:
			t.Fatalf("Watch never showed %s", what)
		}
	}
}

// Watch shows a request as it is filed, answered and gone, and reports a
// hostile file once however often the folder is rescanned.
func TestWatchFollowsTheFolder(t *testing.T) {
	dir := pendingDir(t)
	var mu sync.Mutex
	var refused []string
	c := New(dir, WithRefusals(func(file string, reason error) {
		mu.Lock()
		defer mu.Unlock()
		refused = append(refused, file)
	}))
	w := startWatch(t, c, nil)
	w.until(t, "the empty folder", func(l []Pending) bool { return len(l) == 0 })
	plant(t, dir, requestName("cccccccccccccccc"), []byte("{"), nil)

	f := fileHere(t, New(dir), commandRequest)
	w.until(t, "the request", func(l []Pending) bool { return len(l) == 1 && l[0].Binding == f.Binding && !l[0].Answered })
	if _, err := c.Answer(mustGet(t, c, f.Request.ID), DecisionDeny, ScopeOnce, "wisp-bar"); err != nil {
		t.Fatal(err)
	}
	w.until(t, "the request answered", func(l []Pending) bool { return len(l) == 1 && l[0].Answered })
	f.Withdraw()
	w.until(t, "the folder empty again", func(l []Pending) bool { return len(l) == 0 })

	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 1 || !strings.HasSuffix(refused[0], requestName("cccccccccccccccc")) {
		t.Errorf("refusals reported: %q; want the malformed request once", refused)
	}
}

// Fifty requesters file at once and one face answers them as Watch shows
// them: approve an odd command number, deny an even one. Every requester
// gets its own answer, none crosses, none is lost, and nothing is left.
func TestFiftyRequestersAndOneAnswerer(t *testing.T) {
	const n = 50
	dir := pendingDir(t)
	c := New(dir)
	var mu sync.Mutex
	answeredCommand := map[string]string{} // id -> the command the face answered
	startWatch(t, c, func(list []Pending) {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range list {
			if _, done := answeredCommand[p.Request.ID]; !done {
				answeredCommand[p.Request.ID] = p.Request.Command
				if _, err := c.Answer(p, decisionFor(p.Request.Command), ScopeOnce, "wisp-bar"); err != nil {
					t.Errorf("answer %s: %v", p.Request.ID, err)
				}
			}
		}
	})
	reqs := make([]*requester, n)
	for i := range reqs {
		reqs[i] = launchRequester(t, dir, childConfig{command: fmt.Sprintf("echo %d", i)})
	}
	for i, r := range reqs {
		filed := r.expect("filed")
		d := r.expect("decided")
		r.finish()
		mu.Lock()
		cmd := answeredCommand[filed.ID]
		mu.Unlock()
		if d.ID != filed.ID || cmd != fmt.Sprintf("echo %d", i) || d.Approved != (i%2 == 1) {
			t.Errorf("requester %d filed %s, was answered for %q and decided %+v", i, filed.ID, cmd, d)
		}
	}
	assertEmpty(t, dir)
}

func decisionFor(command string) string {
	i, _ := strconv.Atoi(strings.TrimPrefix(command, "echo "))
	if i%2 == 1 {
		return DecisionApprove
	}
	return DecisionDeny
}
