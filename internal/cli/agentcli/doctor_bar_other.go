//go:build !darwin

package agentcli

import (
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// doctorBar is doctor's wisp-bar line: what the menu-bar helper can reach
// on the session bus (the bus, a tray host, a notification server and what
// its banners can do). It never fails: wisp works without wisp-bar.
func doctorBar(config.Home) (string, error) { return freedesktop.Reach(), nil }
