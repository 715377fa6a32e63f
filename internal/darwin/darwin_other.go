//go:build !darwin || !cgo

package darwin

import "github.com/wisp-sh/wisp/internal/darwin/banners"

// Without macOS and cgo there is no face: every call says so.

// BundleID is "" here: there is no bundle.
func BundleID() string { return "" }

// Notifier is the macOS notifier; here it does nothing but refuse.
type Notifier struct{}

// Buttons a banner carries.
const (
	NoButtons   = 0
	BothButtons = 1
	DenyOnly    = 2
)

// Start returns ErrUnsupported.
func Start() (*Notifier, error) { return nil, ErrUnsupported }

// Show returns ErrUnsupported.
func (n *Notifier) Show(id, title, body string, buttons int) error { return ErrUnsupported }

// Withdraw returns ErrUnsupported.
func (n *Notifier) Withdraw(id string) error { return ErrUnsupported }

// WithdrawAll returns ErrUnsupported.
func (n *Notifier) WithdrawAll() error { return ErrUnsupported }

// DismissAlert returns ErrUnsupported.
func DismissAlert(id string) error { return ErrUnsupported }

// Alert returns ErrUnsupported.
func Alert(id, title, text string, approve bool) error { return ErrUnsupported }

// Events is nil here: nothing is ever reported.
func Events() <-chan Event { return nil }

// Reports is nil here.
func Reports() <-chan banners.State { return nil }

// OpenFile returns ErrUnsupported.
func OpenFile(path string) error { return ErrUnsupported }

// OpenNotificationSettings returns ErrUnsupported.
func OpenNotificationSettings() error { return ErrUnsupported }
