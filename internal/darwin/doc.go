// Package darwin is wisp-bar's macOS face: actionable notifications through
// UNUserNotificationCenter, an NSAlert with the full request as the
// fallback when notifications are refused, opening files and System
// Settings through NSWorkspace, and the bundle check that must come before
// any of it.
//
// It is thin on purpose: the Objective-C lives in notify_darwin.m, the Go
// side only converts strings and hands events over, and every decision is
// the bar core's (package bar), tested on Linux. No Mac builds it in CI;
// internal/darwincheck type-checks the Go side for GOOS=darwin with cgo faked.
//
// Rules the code keeps:
//   - macOS terminates a process that touches UNUserNotificationCenter
//     without a bundle identifier (a binary run outside Wisp Bar.app, a test
//     binary): Start refuses with ErrNoBundle, and the Objective-C checks
//     again before every call.
//   - systray owns the one app run loop ([NSApp run] inside systray.Run);
//     this package never starts another. The delegate's callbacks arrive on
//     the main thread: the exported Go functions copy the strings and pass
//     them on without blocking, dropping an event rather than stalling the
//     menu bar.
//   - The notification's identifier is wisp's request id, so showing the
//     same request again replaces its banner and withdrawing is by id.
//   - A click on a banner's body arrives as ActionDefault (open details),
//     never as an approval; dismissing one arrives as Closed.
//
// On other systems, and without cgo, every call returns ErrUnsupported.
package darwin

import (
	"errors"

	"github.com/wisp-sh/wisp/internal/darwin/banners"
)

// ActionDefault is the click on a banner's body, ActionApprove and
// ActionDeny its buttons (and the alert's).
const (
	ActionDefault = "default"
	ActionApprove = "approve"
	ActionDeny    = "deny"
)

// Event is what the person did to a banner or an alert about request ID.
type Event struct {
	ID     string
	Action string // ActionApprove, ActionDeny, ActionDefault; "" when closed
	Closed bool
}

// Authorization is what the person allowed wisp-bar's notifications to
// do (package banners decides what it means for banners).
type Authorization = banners.Authorization

// UNAuthorizationStatus's values.
const (
	NotDetermined = banners.NotDetermined
	Denied        = banners.Denied
	Authorized    = banners.Authorized
	Provisional   = banners.Provisional
	Ephemeral     = banners.Ephemeral
)

var (
	// ErrNoBundle: the process has no bundle identifier, so macOS would
	// kill it at the first notification call.
	ErrNoBundle = errors.New("wisp-bar is not running from Wisp Bar.app (no bundle identifier), and macOS kills a process without one that asks for notifications; build and install it with make install-app")
	// ErrUnsupported: this build has no macOS face.
	ErrUnsupported = errors.New("the macOS face needs macOS and cgo")
)
