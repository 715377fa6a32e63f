package main

import (
	"errors"
	"log"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/wisp-sh/wisp/internal/freedesktop"
)

const watcherName = freedesktop.WatcherName

// itemPath is where systray exports the StatusNotifierItem.
const itemPath = dbus.ObjectPath("/StatusNotifierItem")

// registerTries bounds the registrations tried with one tray host that
// refuses them (it took its name before it exported its object); the waits
// between them double from registerFirstWait. They run only while a host
// has just appeared: wisp-bar never polls for one.
const (
	registerTries     = 8
	registerFirstWait = 100 * time.Millisecond
)

// hasTrayHost reports whether a tray host's watcher is on the bus.
func hasTrayHost(conn *dbus.Conn) bool { return trayHostOwner(conn) != "" }

// trayHostOwner is the unique name of the watcher's connection, "" when
// there is none.
func trayHostOwner(conn *dbus.Conn) string {
	var owner string
	if conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, watcherName).Store(&owner) != nil {
		return ""
	}
	return owner
}

// followTrayHost registers the tray item each time a StatusNotifierWatcher
// appears or comes back, and rebuilds the menu for it. systray registers
// once at start and retries only on the next NameOwnerChanged, so a host
// that took its name before exporting its object never showed wisp-bar.
func followTrayHost(conn *dbus.Conn, t *tray, logger *log.Logger) {
	match := []dbus.MatchOption{
		dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchObjectPath("/org/freedesktop/DBus"),
		dbus.WithMatchInterface("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, watcherName),
	}
	if err := conn.AddMatchSignal(match...); err != nil {
		logger.Printf("wisp-bar cannot follow the tray host on the session bus (%v); the menu shows only if one runs now", err)
		return
	}
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals)
	owners := make(chan string, 1)
	if owner := trayHostOwner(conn); owner != "" {
		owners <- owner // systray tries it once; a host not ready yet is tried again
	}
	go registerEach(owners, t, logger)
	for sig := range signals {
		if owner, ok := watcherOwner(sig); ok {
			select {
			case <-owners: // a newer owner replaces one not yet handled
			default:
			}
			owners <- owner
		}
	}
	close(owners)
}

// watcherOwner reads a NameOwnerChanged of the watcher's name, sent by the
// bus daemon (no other connection can send as org.freedesktop.DBus).
func watcherOwner(sig *dbus.Signal) (string, bool) {
	if sig.Name != "org.freedesktop.DBus.NameOwnerChanged" || sig.Sender != "org.freedesktop.DBus" || len(sig.Body) != 3 {
		return "", false
	}
	name, _ := sig.Body[0].(string)
	owner, ok := sig.Body[2].(string)
	return owner, ok && name == watcherName
}

func registerEach(owners <-chan string, t *tray, logger *log.Logger) {
	<-t.up // the item is exported: a host may read it
	for owner := range owners {
		if owner == "" {
			logger.Printf("the tray host left the session bus; the menu shows again once one starts")
			continue
		}
		err := registerItem(owners)
		if errors.Is(err, errNewerHost) {
			continue
		}
		if err != nil {
			logger.Printf("the tray host (%s) did not take wisp-bar's item: %v; the menu shows when it restarts", watcherName, err)
			continue
		}
		t.rebuild()
		logger.Printf("wisp-bar's menu is registered with the tray host (%s)", watcherName)
	}
}

// errNewerHost: another watcher took the name while registering.
var errNewerHost = errors.New("another tray host took its place")

// registerItem registers systray's item with the watcher, from systray's
// own connection (the watcher takes the caller as the item's service),
// trying again while the host is not ready.
func registerItem(owners <-chan string) error {
	conn, err := dbus.SessionBus() // the connection systray exported the item on
	if err != nil {
		return err
	}
	wait := registerFirstWait
	for try := 1; ; try++ {
		if len(owners) > 0 {
			return errNewerHost // the newer one is registered next
		}
		err = conn.Object(watcherName, "/StatusNotifierWatcher").Call(watcherName+".RegisterStatusNotifierItem", 0, string(itemPath)).Err
		if err == nil || try == registerTries {
			return err
		}
		time.Sleep(wait)
		wait *= 2
	}
}
