//go:build !linux

package refusal

import "errors"

// confineAndExec has no sandbox to apply off Linux; the capture test is
// Linux-only, and the macOS fixtures are written by hand.
func confineAndExec(string) error {
	return errors.New("the test helper confines commands only on Linux (Landlock)")
}
