//go:build cgo

package main

import (
	"errors"
	"log"

	"github.com/wisp-sh/wisp/internal/bar"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/darwin"
	"github.com/wisp-sh/wisp/internal/darwin/banners"
)

var platformHints = []string{"build and install wisp-bar as Wisp Bar.app with make install-app"}

// openPlatform starts macOS notifications when wisp-bar runs from its
// bundle. Without one, banners are off (macOS would kill the process at the
// first notification call), and the details alert and the menu still work.
// systray.Quit ends the process from the app's terminate, so what must be
// withdrawn at quit is withdrawn in exit, which runs before.
func openPlatform(home config.Home, logger *log.Logger) (platform, error) {
	p := platform{face: macFace{}, desktop: macDesktop{home: home}, close: func() {}}
	n, err := darwin.Start()
	if err != nil {
		p.off = err.Error()
		logger.Printf("banners are off: %v", err)
		return p, nil
	}
	p.face = macFace{n: n}
	p.attach = func(b *bar.Bar, _ *tray) { go reportBanners(b, home, logger) }
	p.exit = func() { n.WithdrawAll() }
	return p, nil
}

// reportBanners tells the bar whether banners reach the person, as macOS
// answered (anything but a clear yes is off: the menu says so, and its
// Details… alert carries the request), and records it for wisp doctor.
func reportBanners(b *bar.Bar, home config.Home, logger *log.Logger) {
	for state := range darwin.Reports() {
		if err := banners.Write(home, state); err != nil {
			logger.Printf("wisp doctor will not know whether banners are on: %v", err)
		}
		off := state.Off()
		if off != "" {
			logger.Printf("banners are off: %s; the menu answers, and Details… shows a request in an alert", off)
		}
		b.SetBannerStatus(bar.BannerStatus{Off: off, CanEnable: state.CanEnable()})
	}
}

// macFace shows bar's banners through UNUserNotificationCenter, and details
// in an alert. Without a Notifier (no bundle) only the alert works.
type macFace struct{ n *darwin.Notifier }

func (f macFace) Show(b bar.Banner) error {
	if f.n == nil {
		return darwin.ErrNoBundle
	}
	return f.n.Show(b.ID, b.Title, b.Body, buttons(b.Actions))
}

// Withdraw removes the request's banner and takes down its details alert.
func (f macFace) Withdraw(id string) error {
	err := darwin.DismissAlert(id)
	if f.n == nil {
		return err // no banner could have been shown
	}
	return errors.Join(err, f.n.Withdraw(id))
}

func (f macFace) ShowDetails(d bar.Details) error {
	return darwin.Alert(d.ID, d.Title, d.Text, buttons(d.Actions) == darwin.BothButtons)
}

func (f macFace) Events() <-chan bar.BannerEvent {
	out := make(chan bar.BannerEvent, 64)
	go func() {
		for ev := range darwin.Events() {
			out <- bar.BannerEvent{ID: ev.ID, Action: ev.Action, Closed: ev.Closed} // Serial 0: the banner shown now
		}
	}()
	return out
}

func buttons(actions []bar.BannerAction) int {
	has := map[string]bool{}
	for _, a := range actions {
		has[a.Key] = true
	}
	switch {
	case has[bar.ActionApprove]:
		return darwin.BothButtons
	case has[bar.ActionDeny]:
		return darwin.DenyOnly
	}
	return darwin.NoButtons
}

type macDesktop struct{ home config.Home }

func (macDesktop) OpenNotificationSettings() error { return darwin.OpenNotificationSettings() }
