//go:build !linux && !darwin

package main

import (
	"fmt"
	"log"
	"runtime"

	"github.com/wisp-sh/wisp/internal/config"

	"github.com/wisp-sh/wisp/pending"
)

var platformHints = []string{"answer waiting requests with `wisp approvals`"}

// openPlatform refuses: wisp's pending channel cannot name a requester here.
func openPlatform(home config.Home, logger *log.Logger) (platform, error) {
	return platform{}, fmt.Errorf("wisp-bar on %s: %w", runtime.GOOS, pending.ErrUnsupported)
}
