package bar

import "fmt"

// maxFinished bounds how many ended requests' answers a Bar remembers.
const maxFinished = 64

// rememberFinished keeps the answers of answered requests that are no longer
// listed (their wisp took the answer), so that a late click on one of
// their banners, or on a menu drawn before, says what the answer was
// instead of guessing. Call it before the answers are read again.
func (b *Bar) rememberFinished() {
	for id, a := range b.answers {
		if _, listed := b.find(id); listed {
			continue
		}
		if _, known := b.finished[id]; !known {
			b.finishedOrder = append(b.finishedOrder, id)
		}
		b.finished[id] = a
	}
	for len(b.finishedOrder) > maxFinished {
		delete(b.finished, b.finishedOrder[0])
		b.finishedOrder = b.finishedOrder[1:]
	}
}

// gone tells the person that request id no longer waits, and, where this
// Bar saw its answer, what it was.
func (b *Bar) gone(id string) {
	if a, ok := b.finished[id]; ok {
		b.notify(fmt.Sprintf("already answered: request %s was %s by %s, and wisp took that answer; nothing is left to answer", id, verbed(a), a.By))
		return
	}
	b.notify(fmt.Sprintf("nothing to answer: request %s is no longer waiting: it was answered elsewhere, withdrawn or expired", id))
}
