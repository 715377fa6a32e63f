// Package app has no cgo file but depends on one: the checker takes it on.
package app

import "example.com/good"

// Start uses the cgo package's API.
func Start() string {
	return good.Label(good.Menu{Title: "wisp"}) + string(rune('0'+good.Twice(2)))
}
