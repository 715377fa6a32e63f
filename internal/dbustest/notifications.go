package dbustest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service: its name, object and interface.
const (
	NotificationsName  = "org.freedesktop.Notifications"
	NotificationsPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	NotificationsIface = "org.freedesktop.Notifications"
)

// Reasons a notification closed, as the specification numbers them.
const (
	ClosedExpired   uint32 = 1
	ClosedByUser    uint32 = 2
	ClosedByRequest uint32 = 3
)

// DefaultCapabilities is what the stand-in server advertises unless a test
// sets others: a subset of what dunst advertises.
var DefaultCapabilities = []string{"actions", "body", "body-markup", "persistence"}

// Recorded is one Notify call as the server received it.
type Recorded struct {
	ID            uint32 // the id the server answered with
	Sender        string // unique bus name of the connection that called Notify
	AppName       string
	ReplacesID    uint32
	Icon          string
	Summary       string
	Body          string
	Actions       []string // flat, as on the wire: key, label, key, label, ...
	Hints         map[string]dbus.Variant
	ExpireTimeout int32
}

// Hint returns the value of one hint, or nil when it was not sent.
func (r Recorded) Hint(name string) any {
	v, ok := r.Hints[name]
	if !ok {
		return nil
	}
	return v.Value()
}

// NotificationServer stands in for a desktop's notification daemon: it owns
// org.freedesktop.Notifications on a bus, records what it is asked to show,
// and emits the signals a person's clicks would cause.
//
// Like dunst, it sends ActionInvoked and NotificationClosed only to the
// connection that posted the notification (a unicast signal), unless
// SetBroadcast(true) makes it broadcast them as conn.Emit does, which the
// specification also allows and some servers do.
type NotificationServer struct {
	t    testing.TB
	conn *dbus.Conn

	mu        sync.Mutex
	caps      []string
	name      string // what GetServerInformation answers
	version   string
	broadcast bool
	nextID    uint32
	calls     []Recorded
	waited    int               // calls already returned by WaitNotify
	changed   chan struct{}     // closed and replaced on each Notify
	open      map[uint32]string // notification id -> sender, while shown
	retired   map[uint32]bool   // closed ids a replacement does not get (HoldClose)
	closing   []uint32          // closed by ClickBody, NotificationClosed not sent yet
	closes    []uint32          // ids given to CloseNotification
}

// StartNotificationServer connects to the bus at address, exports the
// notification interface and takes the service's name. It stops when t ends.
func StartNotificationServer(t testing.TB, address string) *NotificationServer {
	t.Helper()
	s := &NotificationServer{
		t:       t,
		conn:    Dial(t, address),
		caps:    slices.Clone(DefaultCapabilities),
		name:    "wisp-test",
		version: "1",
		changed: make(chan struct{}),
		open:    map[uint32]string{},
		retired: map[uint32]bool{},
	}
	serveAs(t, s.conn, serverMethods{s}, NotificationsName, NotificationsPath, NotificationsIface)
	return s
}

// SetCapabilities replaces what GetCapabilities answers.
func (s *NotificationServer) SetCapabilities(caps ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.caps = slices.Clone(caps)
}

// SetServerInformation replaces the name and version GetServerInformation
// answers, to stand for a server by name (dunst 1.9.0).
func (s *NotificationServer) SetServerInformation(name, version string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.name, s.version = name, version
}

// SetBroadcast makes the server broadcast its signals instead of sending
// them to the posting connection only.
func (s *NotificationServer) SetBroadcast(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broadcast = on
}

// UniqueName is the server's unique bus name, the sender of its signals.
func (s *NotificationServer) UniqueName() string { return s.conn.Names()[0] }

// Stop releases the service name and disconnects, as a daemon that exits.
// The name is free for another server when Stop returns.
func (s *NotificationServer) Stop() {
	if _, err := s.conn.ReleaseName(NotificationsName); err != nil {
		s.t.Errorf("release %s: %v", NotificationsName, err)
	}
	s.conn.Close()
}

// Notifications returns every Notify call received so far, oldest first.
func (s *NotificationServer) Notifications() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Closes returns the ids given to CloseNotification so far, oldest first.
func (s *NotificationServer) Closes() []uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.closes)
}

// WaitNotify returns the next Notify call that no earlier WaitNotify
// returned, waiting up to timeout for it; the test fails when none comes.
// Call it from the test's goroutine.
func (s *NotificationServer) WaitNotify(t testing.TB, timeout time.Duration) Recorded {
	t.Helper()
	return waitNext(t, &s.mu, &s.calls, &s.waited, &s.changed, timeout, "no Notify call reached the notification server")
}

// Invoke emits ActionInvoked(id, key), as a click on the button key does.
// The notification stays shown, as it does in dunst.
func (s *NotificationServer) Invoke(id uint32, key string) {
	s.emit(id, "ActionInvoked", id, key)
}

// CloseByUser removes notification id and emits NotificationClosed(id, 2),
// as the person dismissing it does.
func (s *NotificationServer) CloseByUser(id uint32) {
	s.emit(id, "NotificationClosed", id, ClosedByUser)
	s.mu.Lock()
	delete(s.open, id)
	s.mu.Unlock()
}

// ClickBody is a middle click on the body of notification id as dunst
// handles it (its default mouse_middle_click, do_action and close_current):
// ActionInvoked(id, "default"), then the notification closes, and its
// NotificationClosed(id, 2) goes out before the server answers the next
// Notify call, which is as late as dunst may send it (it sends both before
// it reads its next call), and the order in which a poster that handles
// the click at once hears them: the close after it posted the Details, and
// before the reply. A replacement posted with replaces_id id gets the same
// id, as dunst gives it, so the close the poster hears then is the old
// banner's, not the replacement's.
func (s *NotificationServer) ClickBody(id uint32) {
	s.emit(id, "ActionInvoked", id, "default")
	s.mu.Lock()
	delete(s.open, id)
	s.closing = append(s.closing, id)
	s.mu.Unlock()
}

// sendClosing sends the NotificationClosed that ClickBody left to send.
func (s *NotificationServer) sendClosing() {
	s.mu.Lock()
	ids := s.closing
	s.closing = nil
	s.mu.Unlock()
	for _, id := range ids {
		s.emit(id, "NotificationClosed", id, ClosedByUser)
	}
}

// HoldClose closes notification id now, without a signal, and returns the
// function that sends its NotificationClosed(id, 2) later. It stands for a
// server that numbers a replacement of a closed banner anew and whose close
// may reach the poster after it posted the replacement, which is the order
// a test needs to reproduce; a replacement gets a new id.
func (s *NotificationServer) HoldClose(id uint32) (sendClosed func()) {
	s.mu.Lock()
	delete(s.open, id)
	s.retired[id] = true
	s.mu.Unlock()
	return func() { s.emit(id, "NotificationClosed", id, ClosedByUser) }
}

// Open returns the ids of the notifications shown now, lowest first: what
// the person sees on screen.
func (s *NotificationServer) Open() []uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]uint32, 0, len(s.open))
	for id := range s.open {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// emit sends one signal about notification id to the connection that
// posted it, or to everyone when broadcasting.
func (s *NotificationServer) emit(id uint32, member string, body ...any) {
	s.mu.Lock()
	dest, known := s.posterOf(id)
	broadcast := s.broadcast
	s.mu.Unlock()
	if !known {
		s.t.Errorf("the notification server never showed notification %d", id)
		return
	}
	if broadcast {
		dest = ""
	}
	if err := s.send(dest, member, body...); err != nil {
		s.t.Errorf("emit %s for notification %d: %v", member, id, err)
	}
}

// posterOf finds who posted id, including notifications already closed.
func (s *NotificationServer) posterOf(id uint32) (string, bool) {
	for _, r := range slices.Backward(s.calls) {
		if r.ID == id {
			return r.Sender, true
		}
	}
	return "", false
}

// send emits a signal of the notification interface; dest "" broadcasts.
func (s *NotificationServer) send(dest, member string, body ...any) error {
	if dest == "" {
		return s.conn.Emit(NotificationsPath, NotificationsIface+"."+member, body...)
	}
	msg := &dbus.Message{Type: dbus.TypeSignal, Body: body, Headers: map[dbus.HeaderField]dbus.Variant{
		dbus.FieldPath:        dbus.MakeVariant(NotificationsPath),
		dbus.FieldInterface:   dbus.MakeVariant(NotificationsIface),
		dbus.FieldMember:      dbus.MakeVariant(member),
		dbus.FieldDestination: dbus.MakeVariant(dest),
		dbus.FieldSignature:   dbus.MakeVariant(dbus.SignatureOf(body...)),
	}}
	return s.conn.Send(msg, nil).Err
}

// record stores one Notify call and gives it an id: the replaced one, as
// dunst does even when that notification has closed (its id is reused),
// unless HoldClose retired it; a new one otherwise.
func (s *NotificationServer) record(r Recorded) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.ReplacesID != 0 && !s.retired[r.ReplacesID] {
		r.ID = r.ReplacesID
	} else {
		s.nextID++
		r.ID = s.nextID
	}
	s.open[r.ID] = r.Sender
	s.calls = append(s.calls, r)
	close(s.changed)
	s.changed = make(chan struct{})
	return r.ID
}

// closeRequested handles CloseNotification: a shown notification closes
// with reason 3, told to its poster; an unknown one is ignored, as dunst does.
func (s *NotificationServer) closeRequested(id uint32) {
	s.mu.Lock()
	s.closes = append(s.closes, id)
	_, shown := s.open[id]
	delete(s.open, id)
	s.mu.Unlock()
	if shown {
		s.emit(id, "NotificationClosed", id, ClosedByRequest)
	}
}
