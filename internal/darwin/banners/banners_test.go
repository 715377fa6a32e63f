package banners

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// Only a clear yes is on: an error, a refusal, an unanswered request and a
// status wisp-bar does not know are off, each saying why.
func TestOff(t *testing.T) {
	tests := []struct {
		name      string
		s         State
		off       string // a part of the reason; "" for on
		canEnable bool
	}{
		{"authorized before", State{Status: Authorized}, "", false},
		{"asked and granted", State{Status: Authorized, Asked: true, Granted: true}, "", false},
		{"provisional", State{Status: Provisional}, "", false},
		{"the request's error", State{Status: NotDetermined, Asked: true, Err: "Notifications are not allowed for this application (UNErrorDomain 1)"},
			"macOS refused wisp-bar's notifications (Notifications are not allowed for this application (UNErrorDomain 1)); an ad-hoc signed", false},
		{"a post's error while authorized", State{Status: Authorized, Err: "banner not shown: UNErrorDomain 1401"}, "banner not shown: UNErrorDomain 1401", false},
		{"denied in settings", State{Status: Denied}, "turned off for Wisp Bar in System Settings", true},
		{"still undetermined after asking", State{Status: NotDetermined, Asked: true}, "left wisp-bar's request to show notifications unanswered", false},
		{"not asked yet", State{Status: NotDetermined}, "not yet asked", false},
		{"authorized but not granted", State{Status: Authorized, Asked: true}, "did not grant", false},
		{"an unknown status", State{Status: 9}, "unknown (9)", false},
	}
	for _, tt := range tests {
		off := tt.s.Off()
		if tt.off == "" && off != "" || tt.off != "" && !strings.Contains(off, tt.off) {
			t.Errorf("%s: Off() = %q, want %q", tt.name, off, tt.off)
		}
		if tt.s.CanEnable() != tt.canEnable {
			t.Errorf("%s: CanEnable() = %v", tt.name, !tt.canEnable)
		}
	}
}

func TestDoctorSaysWhich(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	line, err := Doctor(home)
	if err != nil || !strings.Contains(line, "wisp-bar has not run from Wisp Bar.app") || !strings.Contains(line, File(home)) {
		t.Errorf("before wisp-bar ran: %q, %v", line, err)
	}
	at := time.Date(2026, 12, 2, 1, 0, 0, 0, time.Local)
	for _, tt := range []struct {
		s    State
		line string // on: the line
		warn string // off: the warning
	}{
		{State{Status: Authorized, Asked: true, Granted: true, At: at}, "banners on: notifications authorized (wisp-bar, 2026-12-02 01:00)", ""},
		{State{Status: Denied, At: at}, "", "banners are off: notifications are turned off for Wisp Bar in System Settings (wisp-bar, 2026-12-02 01:00); the menu answers, and its Details… shows a request in an alert; turn them on in System Settings > Notifications > Wisp Bar"},
		{State{Status: NotDetermined, Asked: true, At: at}, "", "banners are off: macOS left wisp-bar's request to show notifications unanswered, as it may for an ad-hoc signed Wisp Bar.app (wisp-bar, 2026-12-02 01:00); the menu answers, and its Details… shows a request in an alert; sign Wisp Bar.app with a Developer ID (docs/macos.md) for banners"},
	} {
		if err := Write(home, tt.s); err != nil {
			t.Fatal(err)
		}
		line, err := Doctor(home)
		if tt.line != "" && (line != tt.line || err != nil) {
			t.Errorf("%+v: %q, %v; want %q", tt.s, line, err, tt.line)
		}
		if tt.warn != "" && (err == nil || err.Error() != tt.warn || line != "") {
			t.Errorf("%+v: %q, %v; want the warning %q", tt.s, line, err, tt.warn)
		}
	}
	info, err := os.Stat(File(home))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the record: %v, %v; want a 0600 file", info, err)
	}
}

// A record that is not one says whose it is and how to get a good one.
func TestDoctorOnABrokenRecord(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	home.Ensure("cache")
	os.WriteFile(File(home), []byte("{\"status\": "), 0o600)
	_, err := Doctor(home)
	if err == nil || !strings.Contains(err.Error(), "is not wisp-bar's record of its banners") || !strings.Contains(err.Error(), "start Wisp Bar.app") {
		t.Errorf("a broken record: %v", err)
	}
}
