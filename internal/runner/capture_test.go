package runner

import (
	"bytes"
	"strings"
	"testing"
)

func TestCaptureKeepsAllWhenItFits(t *testing.T) {
	c := newCapture(16)
	c.Write([]byte("hello "))
	c.Write([]byte("world"))
	if got := c.View("X"); got != "hello world" {
		t.Errorf("View = %q", got)
	}
}

func TestCaptureKeepsHeadAndTailWithMarker(t *testing.T) {
	c := newCapture(10)
	var all bytes.Buffer
	for i := range 100 {
		chunk := []byte{byte('a' + i%26)}
		all.Write(chunk)
		c.Write(chunk)
	}
	want := all.String()
	view := c.View("20261129T000000-00000000")
	if !strings.HasPrefix(view, want[:5]+"\n") {
		t.Errorf("view does not start with the head %q: %q", want[:5], view)
	}
	if !strings.HasSuffix(view, want[len(want)-5:]) {
		t.Errorf("view does not end with the tail %q: %q", want[len(want)-5:], view)
	}
	if !strings.Contains(view, "90 bytes left out") || !strings.Contains(view, "output 20261129T000000-00000000") {
		t.Errorf("marker missing the count or the id: %q", view)
	}
	if c.Total() != 100 {
		t.Errorf("Total = %d", c.Total())
	}
}

func TestCaptureTailAcrossLargeAndSmallWrites(t *testing.T) {
	for _, sizes := range [][]int{{3, 50, 2}, {1, 1, 1, 40, 7}, {200}, {4, 4, 4, 4, 4, 4, 4}} {
		c := newCapture(20)
		var all []byte
		n := 0
		for _, s := range sizes {
			chunk := make([]byte, s)
			for i := range chunk {
				chunk[i] = byte('A' + (n+i)%26)
			}
			n += s
			all = append(all, chunk...)
			c.Write(chunk)
		}
		got := c.Bytes()
		if len(all) <= 20 {
			if string(got) != string(all) {
				t.Errorf("%v: got %q want %q", sizes, got, all)
			}
			continue
		}
		want := string(all[:10]) + string(all[len(all)-10:])
		if string(got) != want {
			t.Errorf("%v: kept %q, want head+tail %q", sizes, got, want)
		}
	}
}
