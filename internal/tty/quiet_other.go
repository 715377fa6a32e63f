//go:build !linux && !darwin

package tty

import (
	"errors"
	"os"
)

// Quiet is not supported here: keys typed between lines are echoed.
func Quiet(*os.File) (func(), error) {
	return nil, errors.New("a quiet terminal is not supported on this system")
}
