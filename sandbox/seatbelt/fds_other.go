//go:build !darwin

package seatbelt

// closeInheritedOnExec has nothing to do off macOS: there Seatbelt's argv
// is only shown and tested, never run (Linux's helper closes what it
// inherited itself).
func closeInheritedOnExec() error { return nil }
