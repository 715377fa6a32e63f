package freedesktop

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/godbus/dbus/v5"
)

// reachTimeout bounds each question Reach asks the bus: doctor must answer
// promptly even where the bus hangs.
const reachTimeout = 2 * time.Second

// WatcherName is the tray host's StatusNotifierWatcher, which shows
// wisp-bar's menu on Linux.
const WatcherName = "org.kde.StatusNotifierWatcher"

// Reach says what wisp-bar can reach on the session bus: the bus, a tray
// host for its menu, a notification server for its banners. It starts
// nothing (no D-Bus activation) and is for `wisp doctor`: what is missing
// is said, never an error, since wisp works without wisp-bar.
func Reach() string {
	if runtime.GOOS == "darwin" {
		return "wisp-bar uses the menu bar and Notification Center (run Wisp Bar.app; see docs/wisp-bar.md)"
	}
	address, source, err := sessionBusAddress()
	if err != nil {
		return fmt.Sprintf("no D-Bus session bus (%s is not set, and %s is not a bus socket), so wisp-bar cannot run here; answer with `wisp approvals`",
			sessionBusEnv, defaultSessionSocket())
	}
	conn, err := dbus.Connect(address)
	if err != nil {
		return fmt.Sprintf("the session bus at %s (from %s) does not answer (%v) — wisp-bar cannot run here; answer with `wisp approvals`", address, source, err)
	}
	defer conn.Close()
	return fmt.Sprintf("session bus %s: %s; %s", source, trayHostReach(conn), serverReach(conn))
}

func trayHostReach(conn *dbus.Conn) string {
	if hasOwner(conn, WatcherName) {
		return "a tray host shows its menu"
	}
	return "no tray host (" + WatcherName + ") — the menu shows once one starts (GNOME: the AppIndicator extension)"
}

func serverReach(conn *dbus.Conn) string {
	if !hasOwner(conn, serviceName) {
		if activatable(conn, serviceName) {
			return "no notification server runs, and the bus starts one at the first banner"
		}
		return "no notification server (" + serviceName + ") — banners come once one starts; the menu answers meanwhile"
	}
	ctx, cancel := context.WithTimeout(context.Background(), reachTimeout)
	defer cancel()
	caps, info, err := queryServer(ctx, conn.Object(serviceName, servicePath))
	if err != nil {
		return "a notification server that does not answer: " + err.Error()
	}
	if !slices.Contains(caps, capActions) {
		return fmt.Sprintf("banners by %s %s, without buttons (answer in the menu)", info.Name, info.Version)
	}
	if how, ok := actionsWithoutButtons[info.Name]; ok {
		return fmt.Sprintf("banners by %s %s, which draws no buttons: %s", info.Name, info.Version, how)
	}
	return fmt.Sprintf("banners by %s %s, with buttons", info.Name, info.Version)
}

// actionsWithoutButtons says, for the servers that offer a banner's
// actions but draw no buttons, how a person reaches them (doc.go).
var actionsWithoutButtons = map[string]string{
	"dunst": "a middle click on a banner opens its details, and Approve once and Deny are in dunst's context menu (dunstctl context); the wisp menu answers too",
	"mako":  "a click on a banner opens its details, and Approve once and Deny are in mako's menu (makoctl menu); the wisp menu answers too",
}

func hasOwner(conn *dbus.Conn, name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), reachTimeout)
	defer cancel()
	var has bool
	err := conn.BusObject().CallWithContext(ctx, busName+".NameHasOwner", 0, name).Store(&has)
	return err == nil && has
}

func activatable(conn *dbus.Conn, name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), reachTimeout)
	defer cancel()
	var names []string
	err := conn.BusObject().CallWithContext(ctx, busName+".ListActivatableNames", 0).Store(&names)
	return err == nil && slices.Contains(names, name)
}
