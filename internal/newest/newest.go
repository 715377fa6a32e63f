// Package newest keeps the newest of a stream of values for a loop that
// may be slower than the stream: the sender never blocks, and the loop
// takes only the last value sent.
package newest

import "sync"

// Value holds the newest value put. The zero Value is not ready; use New.
type Value[T any] struct {
	mu    sync.Mutex
	v     T
	ready chan struct{}
}

// New makes an empty Value.
func New[T any]() *Value[T] { return &Value[T]{ready: make(chan struct{}, 1)} }

// Put replaces the held value and signals Ready. It never blocks.
func (n *Value[T]) Put(v T) {
	n.mu.Lock()
	n.v = v
	n.mu.Unlock()
	select {
	case n.ready <- struct{}{}:
	default: // a signal already waits: the loop will take this value
	}
}

// Ready has a signal while a value put has not been taken since.
func (n *Value[T]) Ready() <-chan struct{} { return n.ready }

// Take returns the newest value.
func (n *Value[T]) Take() T {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.v
}
