package bar

import "github.com/wisp-sh/wisp/pending"

// A request whose requester has ended is stale: pending's listing drops
// (and removes) it, but nothing in the folder changes when a process dies,
// so the Bar learns of the death from the system and lists the folder
// again. exits is that watch; on systems where it cannot be had, Watch
// reports it and the Bar lists the folder at each age refresh instead,
// while something waits.

// watchRequesters starts watching the requesters of the list that are not
// watched yet, and stops watching those no longer listed. When it started
// any, the folder is listed once more: a requester that ended before its
// watch began is caught by that listing.
func (b *Bar) watchRequesters() {
	if b.exits == nil {
		return
	}
	live := map[pending.Requester]bool{}
	for _, p := range b.list {
		live[p.Request.Requester] = true
	}
	if b.exits.sync(live) {
		b.relist()
	}
}

// relist lists the folder and hands the list to the loop, as a change
// in the folder would.
func (b *Bar) relist() {
	if list, err := b.cfg.Channel.List(); err == nil {
		b.received(list)
	}
}

// requesterEnded is what an exit watch calls, from its own goroutine.
func (b *Bar) requesterEnded() {
	select {
	case b.ended <- struct{}{}:
	default:
	}
}
