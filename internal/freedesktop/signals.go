package freedesktop

import "github.com/godbus/dbus/v5"

// The signals of the notification interface that the Notifier reads.
const (
	signalActionInvoked      = serviceFace + ".ActionInvoked"
	signalNotificationClosed = serviceFace + ".NotificationClosed"
)

// translateSignals turns the server's signals into Events until Close, or
// until the connection ends; then it closes the events channel.
func (n *Notifier) translateSignals() {
	defer close(n.loopDone)
	defer close(n.events)
	for {
		select {
		case <-n.done:
			return
		case sig, ok := <-n.signals:
			if !ok {
				return
			}
			if ev, ok := n.translate(sig); ok && !n.deliver(ev) {
				return
			}
		}
	}
}

func (n *Notifier) deliver(ev Event) bool {
	select {
	case n.events <- ev:
		return true
	case <-n.done:
		return false
	}
}

// translate maps one signal to an Event, or reports false for a signal that
// is not about a banner this Notifier posted, from the server that shows it.
func (n *Notifier) translate(sig *dbus.Signal) (Event, bool) {
	if sig.Path != servicePath && sig.Name != signalNameOwnerChanged {
		return Event{}, false
	}
	switch sig.Name {
	case signalActionInvoked:
		id, key, ok := actionBody(sig.Body)
		if !ok {
			return Event{}, false
		}
		note, ok := n.requestFor(notificationKey{sig.Sender, id}, sig.Sequence, false)
		return Event{ID: note.request, Action: key, Serial: note.serial}, ok
	case signalNotificationClosed:
		id, reason, ok := closedBody(sig.Body)
		if !ok {
			return Event{}, false
		}
		note, ok := n.requestFor(notificationKey{sig.Sender, id}, sig.Sequence, true)
		return Event{ID: note.request, Closed: true, Reason: reason, Serial: note.serial}, ok
	case signalNameOwnerChanged:
		n.ownerChanged(sig)
	}
	return Event{}, false
}

// requestFor finds the request a notification stands for, and forgets the
// pair when the notification is gone. A close that came before the reply
// that gave the notification its id closed the banner it replaced, whose
// id the server reused: it is dropped, and the replacement kept.
func (n *Notifier) requestFor(key notificationKey, at dbus.Sequence, gone bool) (shownNote, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	note, ok := n.byKey[key]
	if ok && gone {
		if at < note.since {
			return shownNote{}, false
		}
		n.forgetRequest(note.request)
	}
	return note, ok
}

func actionBody(body []any) (id uint32, key string, ok bool) {
	if len(body) != 2 {
		return 0, "", false
	}
	id, ok1 := body[0].(uint32)
	key, ok2 := body[1].(string)
	return id, key, ok1 && ok2
}

func closedBody(body []any) (id, reason uint32, ok bool) {
	if len(body) != 2 {
		return 0, 0, false
	}
	id, ok1 := body[0].(uint32)
	reason, ok2 := body[1].(uint32)
	return id, reason, ok1 && ok2
}
