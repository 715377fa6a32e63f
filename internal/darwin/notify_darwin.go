//go:build darwin && cgo

package darwin

/*
#cgo CFLAGS: -fobjc-arc
#cgo LDFLAGS: -framework Cocoa -framework UserNotifications
#include "notify_darwin.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/wisp-sh/wisp/internal/darwin/banners"
)

// The delegate's callbacks reach Go through exported functions, which
// cannot carry a Notifier; they feed these, made once.
var (
	events  = make(chan Event, 64)
	reports = make(chan banners.State, 8)
	started sync.Once

	// last is the newest State reported, which a failed post amends.
	last struct {
		sync.Mutex
		state    banners.State
		reported bool
	}
)

// askTimeout is how long macOS may leave the request for permission
// unanswered before banners count as off (the person may still answer:
// the answer is reported when it comes).
const askTimeout = 30 * time.Second

// postTimeout bounds the wait for the notification center's answer to a
// post; no answer counts as a failed post.
const postTimeout = 10 * time.Second

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
func wispNotifyAuthorization(status, asked, granted C.int, errText *C.char) {
	s := banners.State{Status: Authorization(status), Asked: asked != 0, Granted: granted != 0, At: time.Now()}
	if errText != nil {
		s.Err = C.GoString(errText)
	}
	report(s)
}

// report keeps s as the newest State and passes it on. A full channel
// drops the oldest report: the newest is the one that counts.
func report(s banners.State) {
	last.Lock()
	last.state, last.reported = s, true
	last.Unlock()
	for {
		select {
		case reports <- s:
			return
		default:
		}
		select {
		case <-reports:
		default:
		}
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
// removal of an earlier run's banners, and the one request for permission;
// what macOS answers arrives on Reports. Call it from main before
// systray.Run. Without a bundle identifier it returns ErrNoBundle and
// touches nothing.
func Start() (*Notifier, error) { return start(true) }

// start is Start; ask false reads the authorization back without asking
// (the tests, which must not raise macOS's question).
func start(ask bool) (*Notifier, error) {
	if BundleID() == "" {
		return nil, ErrNoBundle
	}
	flag := 0
	if ask {
		flag = 1
	}
	started.Do(func() {
		C.WispNotifyStart(C.int(flag))
		go reportUnanswered(askTimeout, ask)
	})
	return &Notifier{}, nil
}

// reportUnanswered reports banners off, the request (if asked) left
// unanswered, when macOS has said nothing after wait: without it an app
// macOS never answers would count as having banners, and requests would go
// unseen.
func reportUnanswered(wait time.Duration, asked bool) {
	time.Sleep(wait)
	last.Lock()
	reported := last.reported
	last.Unlock()
	if !reported {
		report(banners.State{Status: NotDetermined, Asked: asked, At: time.Now()})
	}
}

// Buttons a banner carries.
const (
	NoButtons   = 0 // a notice
	BothButtons = 1 // Approve once and Deny
	DenyOnly    = 2 // the request does not offer "once"
)

// Show posts a banner for request id, replacing the one shown for it, and
// waits for macOS to take it. A banner macOS refuses is an error, and is
// reported on Reports as banners off, so that from then on the menu and
// its alert carry requests rather than banners nobody sees.
func (n *Notifier) Show(id, title, body string, buttons int) error {
	if BundleID() == "" {
		return ErrNoBundle
	}
	cid, ctitle, cbody := cstring(id), cstring(title), cstring(body)
	defer freeAll(cid, ctitle, cbody)
	failed := C.WispNotifyPost(cid, ctitle, cbody, C.int(buttons), C.double(postTimeout.Seconds()))
	if failed == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(failed))
	why := C.GoString(failed)
	last.Lock()
	s := last.state
	last.Unlock()
	s.Err, s.At = "the banner for request "+id+" was refused: "+why, time.Now()
	report(s)
	return fmt.Errorf("macOS refused it: %s", why)
}

// categories lists the categories the notification center holds, as
// "identifier:action,action", sorted; nil when it did not answer.
func categories(timeout time.Duration) []string {
	list := C.WispNotifyCategories(C.double(timeout.Seconds()))
	if list == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(list))
	return strings.Split(C.GoString(list), "\n")
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

// Reports says what macOS answered about banners: at Start, and after a
// post it refused.
func Reports() <-chan banners.State { return reports }

// cstring copies s for C, as valid UTF-8 (NSString refuses anything else).
func cstring(s string) *C.char { return C.CString(strings.ToValidUTF8(s, "\uFFFD")) }

func freeAll(ps ...*C.char) {
	for _, p := range ps {
		C.free(unsafe.Pointer(p))
	}
}
