// Package nocgo is pure Go: nothing for the darwin cgo check to do.
package nocgo

// Answer is plain Go.
func Answer() int { return 42 }
