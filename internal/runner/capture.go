package runner

import (
	"fmt"
	"strings"
)

// capture keeps the head and the tail of a stream in fixed memory, so a
// command that prints a gigabyte costs wisp no more than limit bytes.
type capture struct {
	limit int
	head  []byte
	tail  []byte // ring buffer once full
	start int    // index of the oldest byte in tail when full
	full  bool
	total int64
}

func newCapture(limit int) *capture {
	half := limit / 2
	return &capture{limit: limit, head: make([]byte, 0, limit-half), tail: make([]byte, 0, half)}
}

func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if room := cap(c.head) - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.writeTail(p)
	return n, nil
}

func (c *capture) writeTail(p []byte) {
	size := cap(c.tail)
	if size == 0 || len(p) == 0 {
		return
	}
	if len(p) >= size {
		c.tail = append(c.tail[:0], p[len(p)-size:]...)
		c.start, c.full = 0, true
		return
	}
	for len(p) > 0 {
		if !c.full {
			k := min(size-len(c.tail), len(p))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			c.full = len(c.tail) == size
			continue
		}
		k := copy(c.tail[c.start:], p)
		p = p[k:]
		c.start = (c.start + k) % size
	}
}

// Total is how many bytes the stream carried.
func (c *capture) Total() int64 { return c.total }

// Bytes returns everything kept, head then tail, without the marker.
func (c *capture) Bytes() []byte {
	out := append([]byte{}, c.head...)
	out = append(out, c.tail[c.start:]...)
	return append(out, c.tail[:c.start]...)
}

// View renders the bounded view: all of it when it fits, else the head, a
// marker saying how much was left out and where the whole is, and the tail.
func (c *capture) View(outputID string) string {
	kept := int64(len(c.head) + len(c.tail))
	if c.total <= kept {
		return string(c.Bytes())
	}
	var b strings.Builder
	b.Write(c.head)
	if len(c.head) > 0 && c.head[len(c.head)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[… %d bytes left out; the whole output is output %s …]\n", c.total-kept, outputID)
	b.Write(c.tail[c.start:])
	b.Write(c.tail[:c.start])
	return b.String()
}
