package landlock

import (
	"runtime"
	"strings"
	"testing"
)

// The helper refuses to confine from any thread but its process's first:
// its commands could not signal it from another, and whether they could
// would be chance (TestStoppedHelperIsEnded).
func TestHelperRefusesAnotherThread(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	results := make(chan error, 2)
	for range 2 {
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			results <- onFirstThread()
			<-release // holds its thread, so that the two run on two threads
		}()
	}
	var refusals []error
	for range 2 {
		if err := <-results; err != nil {
			refusals = append(refusals, err)
		}
	}
	if len(refusals) == 0 {
		t.Fatal("two goroutines locked to two threads both passed as the process's first thread")
	}
	if msg := refusals[0].Error(); !strings.Contains(msg, "not its process's first thread") || !strings.Contains(msg, "sandbox.MaybeHelperMain") {
		t.Fatalf("onFirstThread on another thread: %v", msg)
	}
}
