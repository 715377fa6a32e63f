package newest

import "testing"

// A slow reader sees one signal for many puts, and the last value put.
func TestValueKeepsTheNewest(t *testing.T) {
	v := New[int]()
	select {
	case <-v.Ready():
		t.Fatal("ready before any put")
	default:
	}
	for i := 1; i <= 5; i++ {
		v.Put(i) // never blocks, though nothing reads
	}
	<-v.Ready()
	if got := v.Take(); got != 5 {
		t.Errorf("took %d, want the newest, 5", got)
	}
	select {
	case <-v.Ready():
		t.Error("a second signal for puts already taken")
	default:
	}
	v.Put(6)
	<-v.Ready()
	if got := v.Take(); got != 6 {
		t.Errorf("took %d, want 6", got)
	}
}
