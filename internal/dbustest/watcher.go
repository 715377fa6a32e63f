package dbustest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// The StatusNotifierWatcher a tray host runs: its name, object and interface.
const (
	WatcherName  = "org.kde.StatusNotifierWatcher"
	WatcherPath  = dbus.ObjectPath("/StatusNotifierWatcher")
	WatcherIface = "org.kde.StatusNotifierWatcher"
)

// Watcher stands in for a tray host's org.kde.StatusNotifierWatcher: it
// hears each item that registers, so a test knows when a tray is up and
// which connection serves it. A test starts it whenever it likes (before
// the tray, or after), stops it and starts another, as a desktop's panel
// that starts late or restarts does.
type Watcher struct {
	conn *dbus.Conn

	mu       sync.Mutex
	items    []string // unique names of the registrations, oldest first
	changed  chan struct{}
	notReady int // registrations still to refuse as an unexported object
	taken    int // registrations already returned by Registered
}

// WatcherOption changes how a stand-in watcher starts.
type WatcherOption func(*Watcher)

// NotReadyFor makes the watcher answer its first n registrations with
// org.freedesktop.DBus.Error.UnknownObject, as a host does that took the
// name before it exported its object (seen with real tray hosts).
func NotReadyFor(n int) WatcherOption { return func(w *Watcher) { w.notReady = n } }

// StartWatcher connects to the bus at address, exports the watcher and
// takes its name. It stops when t ends, or at Stop.
func StartWatcher(t testing.TB, address string, opts ...WatcherOption) *Watcher {
	t.Helper()
	w := &Watcher{conn: Dial(t, address), changed: make(chan struct{})}
	for _, opt := range opts {
		opt(w)
	}
	serveAs(t, w.conn, watcherMethods{w}, WatcherName, WatcherPath, WatcherIface)
	return w
}

// Stop releases the name and disconnects, as a tray host that exits. The
// name is free for another watcher when Stop returns.
func (w *Watcher) Stop() {
	w.conn.ReleaseName(WatcherName)
	w.conn.Close()
}

// Registrations returns the unique names of the items registered so far,
// oldest first; an item registered twice is listed once.
func (w *Watcher) Registrations() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.items...)
}

// Registered waits up to timeout for a registration that no earlier call
// returned and returns the unique name of the connection that made it.
func (w *Watcher) Registered(t testing.TB, timeout time.Duration) string {
	t.Helper()
	return waitNext(t, &w.mu, &w.items, &w.taken, &w.changed, timeout, "no tray item registered with the StatusNotifierWatcher")
}

func (w *Watcher) register(sender string) *dbus.Error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.notReady > 0 {
		w.notReady--
		return dbus.NewError("org.freedesktop.DBus.Error.UnknownObject", []any{"no such object path " + string(WatcherPath)})
	}
	if slices.Contains(w.items, sender) {
		return nil // registered already: a host keeps one entry per item, as KDE's does
	}
	w.items = append(w.items, sender)
	close(w.changed)
	w.changed = make(chan struct{})
	return nil
}

// watcherMethods is what Watcher exports, kept apart from its test-facing
// methods.
type watcherMethods struct{ w *Watcher }

func (m watcherMethods) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	return m.w.register(string(sender))
}

func (m watcherMethods) RegisterStatusNotifierHost(service string) *dbus.Error { return nil }
