package main

import (
	"strings"
	"sync"

	"fyne.io/systray"

	"github.com/wisp-sh/wisp/bar"
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
	end()
}

var (
	trayQuit     = make(chan struct{})
	trayQuitOnce sync.Once
)

// quitTray ends runSystray; it may be called more than once, from any
// goroutine.
func quitTray() { trayQuitOnce.Do(func() { close(trayQuit) }) }
