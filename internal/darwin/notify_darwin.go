//go:build darwin && cgo

package darwin

/*
#cgo CFLAGS: -fobjc-arc
#cgo LDFLAGS: -framework Cocoa -framework UserNotifications
#include "notify_darwin.h"
*/
import "C"

import (
	"strings"
	"sync"
	"unsafe"
)

// The delegate's callbacks reach Go through exported functions, which
// cannot carry a Notifier; they feed these, made once.
var (
	events         = make(chan Event, 64)
	authorizations = make(chan Authorization, 4)
	started        sync.Once
)

//export wispNotifyEvent
func wispNotifyEvent(requestID, action *C.char) {
	// On the main thread: copy, hand over, return. A full channel drops the
	// event (the menu still answers) rather than stall the menu bar.
	ev := Event{ID: C.GoString(requestID), Action: C.GoString(action)}
	ev.Closed = ev.Action == ""
	select {
	case events <- ev:
	default:
	}
}

//export wispNotifyAuthorization
func wispNotifyAuthorization(status C.int) {
	select {
	case authorizations <- Authorization(status):
	default:
	}
}

// BundleID is the process's bundle identifier, "" outside a bundle.
func BundleID() string {
	id := C.WispBundleID()
	if id == nil {
		return ""
	}
	defer C.free(unsafe.Pointer(id))
	return C.GoString(id)
}

// Notifier posts and withdraws banners. There is one per process.
type Notifier struct{}

// Start sets up notifications: the delegate, the two-button category, the
// removal of an earlier run's banners, and the one request for permission.
// Call it from main before systray.Run. Without a bundle identifier it
// returns ErrNoBundle and touches nothing.
func Start() (*Notifier, error) {
	if BundleID() == "" {
		return nil, ErrNoBundle
	}
	started.Do(func() { C.WispNotifyStart() })
	return &Notifier{}, nil
}

// Buttons a banner carries.
const (
	NoButtons   = 0 // a notice
	BothButtons = 1 // Approve once and Deny
	DenyOnly    = 2 // the request does not offer "once"
)

// Show posts a banner for request id, replacing the one shown for it.
func (n *Notifier) Show(id, title, body string, buttons int) error {
	cid, ctitle, cbody := cstring(id), cstring(title), cstring(body)
	defer freeAll(cid, ctitle, cbody)
	C.WispNotifyPost(cid, ctitle, cbody, C.int(buttons))
	return nil
}

// Withdraw removes the banner of request id, shown or still to be shown.
func (n *Notifier) Withdraw(id string) error {
	cid := cstring(id)
	defer freeAll(cid)
	C.WispNotifyWithdraw(cid)
	return nil
}

// WithdrawAll removes every banner this app delivered or queued; wisp-bar
// calls it as it quits.
func (n *Notifier) WithdrawAll() error {
	C.WispNotifyWithdrawAll()
	return nil
}

// DismissAlert takes down the alert of request id, if one shows, without
// reporting a button: its request was answered elsewhere, or ended.
func DismissAlert(id string) error {
	cid := cstring(id)
	defer freeAll(cid)
	C.WispAlertDismiss(cid)
	return nil
}

// Alert shows the whole request in an alert (Close, Deny and, when approve
// is set, Approve once) without waiting for it; the button comes back as
// an Event. It needs no permission: it is the fallback when banners are off.
func Alert(id, title, text string, approve bool) error {
	cid, ctitle, ctext := cstring(id), cstring(title), cstring(text)
	defer freeAll(cid, ctitle, ctext)
	flag := 0
	if approve {
		flag = 1
	}
	C.WispAlert(cid, ctitle, ctext, C.int(flag))
	return nil
}

// Events reports clicks on banners and alerts.
func Events() <-chan Event { return events }

// Authorizations reports what the person allowed, at Start and after.
func Authorizations() <-chan Authorization { return authorizations }

// cstring copies s for C, as valid UTF-8 (NSString refuses anything else).
func cstring(s string) *C.char { return C.CString(strings.ToValidUTF8(s, "\uFFFD")) }

func freeAll(ps ...*C.char) {
	for _, p := range ps {
		C.free(unsafe.Pointer(p))
	}
}
