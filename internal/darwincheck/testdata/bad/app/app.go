// Package app has no cgo file but depends on one, so go vet cannot build it
// for darwin here: the checker must take it on, bodies included.
package app

import "example.com/bad"

// Start mixes up the types of bad's answers.
func Start() string {
	return bad.Count() // want: type error
}
