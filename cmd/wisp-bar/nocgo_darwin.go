//go:build !cgo

package main

import (
	"errors"
	"io"

	"github.com/wisp-sh/wisp/internal/config"
)

// serve refuses: on macOS the menu bar (systray) and the banners are cgo.
func serve(home config.Home, stderr io.Writer) int {
	return fail(stderr, errors.New("this wisp-bar was built without cgo, and on macOS the menu bar and the banners need it"),
		"build it with make app (CGO_ENABLED=1), and install it with make install-app")
}
