//go:build !linux

package main

import "github.com/wisp-sh/wisp/internal/bar"

// stopWaitsForMenu: on macOS the exit callback runs on the main thread,
// which a menu update in progress is waiting for, so it must not wait.
const stopWaitsForMenu = false

// menuLabel is the label as written: menus here have no access-key marks.
func menuLabel(label string) string { return label }

// survive lets every panic go on: there is no session bus to lose here.
func survive() {}

// trayTitle is the text beside the icon in the menu bar: the count alone,
// nothing when nothing waits.
func trayTitle(m bar.Menu) string { return m.Title }
