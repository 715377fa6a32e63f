package main

import (
	"strings"

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
