//go:build darwin && cgo

package darwin

/*
#include "notify_darwin.h"
*/
import "C"

import (
	"fmt"
	"os"
)

// notificationSettings is the Notifications pane of System Settings.
const notificationSettings = "x-apple.systempreferences:com.apple.preference.notifications"

// OpenFile opens path in the app macOS picks for it (Console for a log).
func OpenFile(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	return openURL(path, true)
}

// OpenNotificationSettings opens System Settings at Notifications, where the
// person lets Wisp Bar's banners through.
func OpenNotificationSettings() error { return openURL(notificationSettings, false) }

func openURL(target string, isFile bool) error {
	c := cstring(target)
	defer freeAll(c)
	flag := 0
	if isFile {
		flag = 1
	}
	if C.WispOpenURL(c, C.int(flag)) == 0 {
		return fmt.Errorf("open %s: macOS does not take it as a URL", target)
	}
	return nil
}
