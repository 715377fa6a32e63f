package freedesktop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// The notification service on the session bus.
const (
	serviceName = "org.freedesktop.Notifications"
	servicePath = dbus.ObjectPath("/org/freedesktop/Notifications")
	serviceFace = "org.freedesktop.Notifications"
)

// callTimeout bounds one call to the notification server. It is long
// enough for the bus to start a server on demand (D-Bus activation).
const callTimeout = 25 * time.Second

// Errors a Notifier's callers can tell apart.
var (
	// ErrNoServer: nothing answers as org.freedesktop.Notifications.
	ErrNoServer = errors.New("no notification server on the session bus")
	// ErrNoActions: the server shows no buttons.
	ErrNoActions = errors.New("the notification server offers no buttons")
	// ErrClosed: the Notifier was closed.
	ErrClosed = errors.New("the notifier is closed")
)

// ServerInfo is what the notification server says about itself.
type ServerInfo struct {
	Name, Vendor, Version, SpecVersion string
}

// notificationKey names one notification: ids are only unique within one
// run of one server, so the server's unique bus name is part of the key.
type notificationKey struct {
	server string
	id     uint32
}

// Notifier posts banners and reports what the person does with them. It
// keeps one D-Bus connection, because servers send the signals to the
// connection that posted. Its methods are safe for concurrent use.
type Notifier struct {
	conn     *dbus.Conn
	ownsConn bool
	caps     []string
	server   ServerInfo

	signals  chan *dbus.Signal
	events   chan Event
	done     chan struct{}
	loopDone chan struct{}

	// Set by Attach: what hears the server come and go, and the record of
	// the banners shown.
	status func(Status)
	record string
	busID  string

	mu        sync.Mutex // guards the fields below and orders D-Bus calls
	closed    bool
	byRequest map[string]notificationKey
	byKey     map[notificationKey]shownNote
	serverErr error // why no server shows banners now; nil when one does
}

// shownNote is what a notification stands for: the request, the serial of
// the banner last posted in it, and where in the connection's stream of
// messages the reply that gave its id came. A server may give a
// replacement the id of a banner that has just closed (dunst does, after a
// click on the body closes it); a NotificationClosed that came before that
// reply is the old banner's, not the replacement's.
type shownNote struct {
	request string
	serial  uint64
	since   dbus.Sequence
}

// Connect makes a Notifier on conn, which must stay open while the Notifier
// is used; Close leaves it open. conn should deliver signals in order
// (dbus.WithSignalHandler(dbus.NewSequentialSignalHandler())); with godbus's
// default handler the order holds only while the Notifier keeps up.
// It asks the server for its capabilities once, here.
func Connect(conn *dbus.Conn) (*Notifier, error) {
	n := newNotifier(conn)
	if err := n.askServer(); err != nil {
		return nil, err
	}
	if err := n.subscribe(); err != nil {
		return nil, err
	}
	go n.translateSignals()
	return n, nil
}

func newNotifier(conn *dbus.Conn) *Notifier {
	return &Notifier{
		conn:      conn,
		signals:   make(chan *dbus.Signal, 64),
		events:    make(chan Event, 64),
		done:      make(chan struct{}),
		loopDone:  make(chan struct{}),
		byRequest: map[string]notificationKey{},
		byKey:     map[notificationKey]shownNote{},
	}
}

func (n *Notifier) subscribe() error {
	if err := n.conn.AddMatchSignal(matchOptions()...); err != nil {
		return fmt.Errorf("subscribe to the notification server's signals: %w", err)
	}
	n.conn.Signal(n.signals)
	return nil
}

func matchOptions() []dbus.MatchOption {
	return []dbus.MatchOption{dbus.WithMatchInterface(serviceFace), dbus.WithMatchObjectPath(servicePath)}
}

// askServer reads the server's capabilities and, for messages, its name.
func (n *Notifier) askServer() error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	caps, info, err := queryServer(ctx, n.service())
	n.mu.Lock()
	defer n.mu.Unlock()
	n.serverErr = err
	if err == nil {
		n.caps, n.server = caps, info
	}
	return err
}

// queryServer asks the server for its capabilities and name; a call to a
// name nobody owns starts the server where the bus can (D-Bus activation).
func queryServer(ctx context.Context, service dbus.BusObject) ([]string, ServerInfo, error) {
	var caps []string
	err := service.CallWithContext(ctx, serviceFace+".GetCapabilities", 0).Store(&caps)
	if err != nil {
		return nil, ServerInfo{}, fmt.Errorf("%w (%s): %w; start your desktop's notification daemon (or dunst, mako) and answer in the wisp menu until then",
			ErrNoServer, serviceName, err)
	}
	var info ServerInfo
	err = service.CallWithContext(ctx, serviceFace+".GetServerInformation", 0).
		Store(&info.Name, &info.Vendor, &info.Version, &info.SpecVersion)
	if err != nil {
		info.Name = "unknown"
	}
	return caps, info, nil
}

func (n *Notifier) service() dbus.BusObject { return n.conn.Object(serviceName, servicePath) }

// Capabilities returns what the server advertised when it was last asked.
func (n *Notifier) Capabilities() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.caps)
}

// Server returns what the server said about itself when it was last asked.
func (n *Notifier) Server() ServerInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.server
}

// CheckActions returns nil when the server advertises buttons ("actions"),
// or an error wrapping ErrNoActions that says the menu is the way to answer.
func (n *Notifier) CheckActions() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.checkActions()
}

func (n *Notifier) checkActions() error {
	if slices.Contains(n.caps, capActions) {
		return nil
	}
	return fmt.Errorf("%w: %s %s lacks the %q capability, so its banners cannot approve or deny; answer in the wisp menu",
		ErrNoActions, n.server.Name, n.server.Version, capActions)
}

// Events delivers what the person did to banners this Notifier posted. It
// is closed by Close, or when the connection ends.
func (n *Notifier) Events() <-chan Event { return n.events }

// Show posts b, or replaces the banner already shown for b.ID.
func (n *Notifier) Show(b Banner) error {
	if err := b.validate(); err != nil {
		return err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return ErrClosed
	}
	if n.serverErr != nil {
		return fmt.Errorf("show the banner for request %s: %w", b.ID, n.serverErr)
	}
	if err := n.post(b); err != nil {
		return fmt.Errorf("show the banner for request %s: %w", b.ID, err)
	}
	return nil
}

// post calls Notify and records which notification now stands for b.ID.
// It holds n.mu throughout, so a signal about the new notification that
// arrives before post returns waits for the record instead of being lost.
func (n *Notifier) post(b Banner) error {
	owner, err := n.serverOwner()
	if err != nil {
		return err
	}
	replaces := uint32(0)
	if prev, ok := n.byRequest[b.ID]; ok && prev.server == owner {
		replaces = prev.id // a banner of a server that has since restarted is gone
	}
	id, since, err := n.notify(b, replaces)
	if err != nil {
		return err
	}
	if owner == "" { // the call started the server
		if owner, err = n.serverOwner(); err != nil || owner == "" {
			return fmt.Errorf("find which connection shows notification %d: %w", id, errors.Join(err, ErrNoServer))
		}
	}
	n.remember(b.ID, notificationKey{owner, id}, shownNote{request: b.ID, serial: b.Serial, since: since})
	return nil
}

// notify calls Notify and returns the id given, and the place of the reply
// in the connection's messages.
func (n *Notifier) notify(b Banner, replaces uint32) (uint32, dbus.Sequence, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var id uint32
	call := n.service().CallWithContext(ctx, serviceFace+".Notify", 0,
		appName, replaces, b.Icon, b.Title, b.bodyFor(slices.Contains(n.caps, capBodyMarkup)),
		b.flatActions(), b.hints(), b.expireTimeout())
	err := call.Store(&id)
	return id, call.ResponseSequence, err
}

// serverOwner returns the unique name that owns the service now, or "" when
// nobody does (the bus may start a server on the next call).
func (n *Notifier) serverOwner() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var owner string
	err := n.conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, serviceName).Store(&owner)
	var dbusErr dbus.Error
	if errors.As(err, &dbusErr) && dbusErr.Name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("ask the bus who shows notifications: %w", err)
	}
	return owner, nil
}

// remember maps request ↔ notification both ways, replacing older entries
// of either side. Callers hold n.mu.
func (n *Notifier) remember(request string, key notificationKey, note shownNote) {
	n.drop(request)
	if other, ok := n.byKey[key]; ok {
		delete(n.byRequest, other.request)
	}
	n.byRequest[request] = key
	n.byKey[key] = note
	n.saveRecord()
}

// forgetRequest drops request's banner from both maps. Callers hold n.mu.
func (n *Notifier) forgetRequest(request string) (notificationKey, bool) {
	key, ok := n.drop(request)
	if ok {
		n.saveRecord()
	}
	return key, ok
}

func (n *Notifier) drop(request string) (notificationKey, bool) {
	key, ok := n.byRequest[request]
	if ok {
		delete(n.byRequest, request)
		delete(n.byKey, key)
	}
	return key, ok
}
