// Package banners owns what macOS said about wisp-bar's banners: the
// decision whether they reach the person (and if not, why, in words for
// that person), and the record wisp-bar keeps of it in wisp's home so that
// `wisp doctor`, which is no app and may not touch the notification center,
// can say which.
//
// It has no cgo: package darwin, wisp-bar and wisp (built with
// CGO_ENABLED=0) all use it, and it is tested on every system.
package banners

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// Authorization is UNAuthorizationStatus: what the person allowed
// wisp-bar's notifications to do.
type Authorization int

// UNAuthorizationStatus's values.
const (
	NotDetermined Authorization = iota
	Denied
	Authorized
	Provisional
	Ephemeral
)

// Allowed reports whether the status lets banners through.
func (a Authorization) Allowed() bool { return a == Authorized || a == Provisional || a == Ephemeral }

func (a Authorization) String() string {
	switch a {
	case NotDetermined:
		return "not determined"
	case Denied:
		return "denied"
	case Authorized:
		return "authorized"
	case Provisional:
		return "provisional"
	case Ephemeral:
		return "ephemeral"
	}
	return fmt.Sprintf("unknown (%d)", int(a))
}

// State is what macOS said: the status read back from the notification
// center, the answer to wisp-bar's request for permission when it asked
// this run, and the error of that request or of a banner's post.
type State struct {
	Status  Authorization `json:"status"`
	Asked   bool          `json:"asked,omitempty"`
	Granted bool          `json:"granted,omitempty"`
	Err     string        `json:"error,omitempty"`
	At      time.Time     `json:"at"`
}

// Off says why banners do not reach the person, "" when they do. Anything
// but a clear yes is off, so that the menu says so and offers the alert: a
// banner that macOS drops without a word is a request nobody sees.
func (s State) Off() string {
	switch {
	case s.Err != "":
		return "macOS refused wisp-bar's notifications (" + s.Err + "); an ad-hoc signed Wisp Bar.app often is"
	case s.Status == Denied:
		return "notifications are turned off for Wisp Bar in System Settings"
	case s.Status == NotDetermined && s.Asked:
		return "macOS left wisp-bar's request to show notifications unanswered, as it may for an ad-hoc signed Wisp Bar.app"
	case s.Status == NotDetermined:
		return "wisp-bar has not yet asked macOS to show notifications"
	case !s.Status.Allowed():
		return "macOS reports an authorization wisp-bar does not know: " + s.Status.String()
	case s.Asked && !s.Granted:
		return "macOS did not grant wisp-bar's request to show notifications"
	}
	return ""
}

// CanEnable reports whether the person can turn banners on in System
// Settings: they were turned off there.
func (s State) CanEnable() bool { return s.Err == "" && s.Status == Denied }

// File is where wisp-bar keeps the newest State.
func File(home config.Home) string { return filepath.Join(home.Dir, "cache", "bar-banners.json") }

// Write records s for doctor, atomically.
func Write(home config.Home, s State) error {
	if _, err := home.Ensure("cache"); err != nil {
		return err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(File(home), append(data, '\n'))
}

// Read returns the State wisp-bar recorded; fs.ErrNotExist when it has
// not run from its bundle in this home.
func Read(home config.Home) (State, error) {
	var s State
	data, err := os.ReadFile(File(home))
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s is not wisp-bar's record of its banners (%w); quit and start Wisp Bar.app to write it again", File(home), err)
	}
	return s, nil
}

// Doctor is `wisp doctor`'s line on a Mac: whether banners reach the
// person, as wisp-bar last found. The error is a warning to show (banners
// off: the menu and its alert answer), not a failure of wisp's.
func Doctor(home config.Home) (string, error) {
	s, err := Read(home)
	if errors.Is(err, fs.ErrNotExist) {
		return "wisp-bar has not run from Wisp Bar.app with this home (" + File(home) + " is missing); open it to check banners", nil
	}
	if err != nil {
		return "", err
	}
	when := s.At.Local().Format("2006-01-02 15:04")
	if off := s.Off(); off != "" {
		fix := "the menu answers, and its Details… shows a request in an alert"
		if s.CanEnable() {
			fix += "; turn them on in System Settings > Notifications > Wisp Bar"
		} else if s.Err != "" || s.Asked {
			fix += "; sign Wisp Bar.app with a Developer ID (docs/macos.md) for banners"
		}
		return "", fmt.Errorf("banners are off: %s (wisp-bar, %s); %s", off, when, fix)
	}
	return fmt.Sprintf("banners on: notifications %s (wisp-bar, %s)", s.Status, when), nil
}
