package freedesktop

import (
	"errors"
	"fmt"

	"github.com/godbus/dbus/v5"
)

// The bus daemon's signal that a name changed hands.
const (
	busName                = "org.freedesktop.DBus"
	busPath                = dbus.ObjectPath("/org/freedesktop/DBus")
	signalNameOwnerChanged = busName + ".NameOwnerChanged"
)

// ErrServerLeft: the notification server left the session bus, and its
// banners with it.
var ErrServerLeft = errors.New("the notification server left the session bus")

// Status is what can show banners now.
type Status struct {
	// Err is nil while a server shows banners; otherwise it says why none
	// can (it wraps ErrNoServer).
	Err error
	// Server is the server that shows them, when Err is nil.
	Server ServerInfo
	// NoButtons is set when that server draws no buttons (it wraps
	// ErrNoActions); banners then only inform.
	NoButtons error
}

// Options are what Attach is told besides the connection.
type Options struct {
	// Status hears each change of the notification server after Attach
	// returns: one that appears, leaves or is replaced. It is called from
	// the Notifier's own goroutine and must not block.
	Status func(Status)
	// Record is a file in which the Notifier keeps the ids of the banners
	// it shows, rewritten atomically at each change. At Attach, the banners
	// an earlier Notifier recorded there and left on screen (it was killed,
	// it crashed) are closed, when that Notifier's connection is gone and
	// the same server still shows them. Empty keeps no record.
	Record string
}

// Attach makes a Notifier on conn whether or not a notification server is
// there, and follows the server's name on the bus: one that appears later
// is asked for its capabilities and shows the next banners; one that
// leaves takes its banners with it (they are forgotten, and Show says why
// until another comes). conn must stay open while the Notifier is used.
func Attach(conn *dbus.Conn, opts Options) (*Notifier, error) {
	n := newNotifier(conn)
	n.status, n.record = opts.Status, opts.Record
	if err := conn.AddMatchSignal(ownerMatch()...); err != nil {
		return nil, fmt.Errorf("follow the notification server on the bus: %w", err)
	}
	if err := n.subscribe(); err != nil {
		return nil, err
	}
	if err := conn.BusObject().Call(busName+".GetId", 0).Store(&n.busID); err != nil {
		return nil, fmt.Errorf("ask the session bus for its id: %w", err)
	}
	if n.askServer() == nil {
		n.closeLeftovers()
	}
	n.mu.Lock()
	n.saveRecord()
	n.mu.Unlock()
	go n.translateSignals()
	return n, nil
}

func ownerMatch() []dbus.MatchOption {
	return []dbus.MatchOption{
		dbus.WithMatchSender(busName), dbus.WithMatchObjectPath(busPath), dbus.WithMatchInterface(busName),
		dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, serviceName),
	}
}

// Status says what shows banners now.
func (n *Notifier) Status() Status {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.serverErr != nil {
		return Status{Err: n.serverErr}
	}
	return Status{Server: n.server, NoButtons: n.checkActions()}
}

// ownerChanged follows org.freedesktop.Notifications changing hands. Only
// the bus daemon sends as org.freedesktop.DBus, so the signal is believed.
func (n *Notifier) ownerChanged(sig *dbus.Signal) {
	name, newOwner, ok := ownerBody(sig.Body)
	if !ok || name != serviceName || sig.Sender != busName || sig.Path != busPath {
		return
	}
	n.mu.Lock()
	for request := range n.byRequest { // the old server's banners went with it
		n.drop(request)
	}
	n.serverErr = fmt.Errorf("%w: %w; banners come back when one starts, answer in the wisp menu until then", ErrNoServer, ErrServerLeft)
	n.saveRecord()
	n.mu.Unlock()
	if newOwner != "" {
		n.askServer()
	}
	if n.status != nil {
		n.status(n.Status())
	}
}

func ownerBody(body []any) (name, newOwner string, ok bool) {
	if len(body) != 3 {
		return "", "", false
	}
	name, ok1 := body[0].(string)
	newOwner, ok2 := body[2].(string)
	return name, newOwner, ok1 && ok2
}
