//go:build !linux

package sandboxtest

import "errors"

func seizeParent() error { return errors.New("seize-parent is a Linux probe") }

func tiocsti() error { return errors.New("tiocsti is a Linux probe") }
