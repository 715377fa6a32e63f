package dbustest

import (
	"sync"
	"testing"
	"time"
)

// waitNext returns the entry of log at *taken, the first that no earlier
// wait returned, waiting up to timeout for one to be added: whoever adds
// one closes and replaces *changed under mu. The test fails, saying what
// never came, when none does.
func waitNext[T any](t testing.TB, mu *sync.Mutex, log *[]T, taken *int, changed *chan struct{}, timeout time.Duration, never string) T {
	t.Helper()
	deadline := time.After(timeout)
	for {
		mu.Lock()
		if *taken < len(*log) {
			v := (*log)[*taken]
			*taken++
			mu.Unlock()
			return v
		}
		ch := *changed
		mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("%s within %v", never, timeout)
		}
	}
}
