//go:build !linux && (!darwin || cgo)

package main

import "fyne.io/systray"

// runSystray is systray.Run: on macOS it must own the main thread, and its
// ready callback comes once the status item exists.
func runSystray(ready, exit func()) { systray.Run(ready, exit) }

// quitTray ends runSystray.
func quitTray() { systray.Quit() }
