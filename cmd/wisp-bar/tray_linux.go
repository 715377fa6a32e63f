package main

import (
	"errors"
	"net"
	"strings"
	"sync"
	"syscall"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"

	"github.com/wisp-sh/wisp/internal/bar"
)

// stopWaitsForMenu: systray closes its D-Bus connection right after the
// exit callback, and a menu update still running would then panic; on
// Linux no update needs the main goroutine, so the callback can wait.
const stopWaitsForMenu = true

// menuLabel escapes the underscore, which dbusmenu reads as the mark of an
// access key: "rm my_file" must not show as "rm myfile".
func menuLabel(label string) string { return strings.ReplaceAll(label, "_", "__") }

// trayTitle is the StatusNotifierItem's title. Hosts that show it show it
// as the item's name, so it names wisp and the count.
func trayTitle(m bar.Menu) string {
	if m.Count == 0 {
		return "wisp"
	}
	return m.Tooltip
}

// runSystray runs the tray until quitTray, calling ready once the item is
// on the bus. fyne.io/systray v1.12.2's Run calls its ready callback on a
// goroutine while it is still exporting the item, and an icon, title or
// tooltip set in that window is lost until it next changes (seen in CI: the
// Title read "" with the menu already built). Starting it ourselves and then
// calling ready closes the window.
func runSystray(ready, exit func()) {
	start, end := systray.RunWithExternalLoop(nil, exit)
	start()
	ready()
	<-trayQuit
	defer survive()
	end()
}

// systrayConn is systray's connection to the session bus, made before the
// tray starts (openPlatform).
var systrayConn *dbus.Conn

// trayConnLost reports whether systray's connection has ended: the session
// bus went away.
func trayConnLost() bool { return systrayConn == nil || !systrayConn.Connected() }

// survive stops the panics fyne.io/systray v1.12.2 raises once the session
// bus has gone under it (its SetMust on a closed connection; its end,
// closing a connection it never got when the bus went as it started):
// wisp-bar is ending then, and says why. Any other panic goes on.
func survive() {
	if r := recover(); r != nil && !trayConnLost() && !connectionEnded(r) {
		panic(r)
	}
}

// connectionEnded reports whether a panic's value says the bus connection
// ended: a write that found the socket closed before the reader noticed.
func connectionEnded(r any) bool {
	err, ok := r.(error)
	return ok && (errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, dbus.ErrClosed) || errors.Is(err, net.ErrClosed))
}

var (
	trayQuit     = make(chan struct{})
	trayQuitOnce sync.Once
)

// quitTray ends runSystray; it may be called more than once, from any
// goroutine.
func quitTray() { trayQuitOnce.Do(func() { close(trayQuit) }) }
