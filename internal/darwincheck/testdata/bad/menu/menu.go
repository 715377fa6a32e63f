// Package menu is a pure-Go dependency of the cgo package.
package menu

// Title returns the menu's title for n waiting requests.
func Title(n int) string { return "wisp" }
