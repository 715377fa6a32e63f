package vet

import "testing"

func TestShow(t *testing.T) {
	go func() {
		t.Fatal("from another goroutine") // want: vet
	}()
}
