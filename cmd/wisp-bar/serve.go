//go:build !darwin || cgo

package main

import (
	"context"
	"errors"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"fyne.io/systray"

	"github.com/wisp-sh/wisp/internal/bar"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/pending"
)

// stopGuard bounds the wait for the bar's loop once the tray has stopped.
const stopGuard = 5 * time.Second

// platform is what one system gives wisp-bar besides the tray.
type platform struct {
	face    bar.Face // nil: no banners, and off says why
	off     string
	desktop bar.Desktop
	attach  func(*bar.Bar, *tray) // starts what reports to the bar and the tray; may be nil
	close   func()                // withdraws what is left and disconnects
	// exit runs as the tray quits, before anything else ends (macOS ends
	// the process right after it); may be nil.
	exit func()
	// busGone is closed when the connection to the session bus ends (nil
	// where there is none): nothing wisp-bar shows can be reached then.
	busGone <-chan struct{}
}

// serve runs wisp-bar until Quit, SIGINT/SIGTERM, or the end of its
// session bus; every banner it showed is withdrawn on the way out.
func serve(home config.Home, stderr io.Writer) int {
	logger := log.New(stderr, "wisp-bar: ", log.LstdFlags)
	log.SetFlags(0)
	log.SetOutput(systrayLog{logger})
	p, err := openPlatform(home, logger)
	if err != nil {
		return fail(stderr, err, platformHints...)
	}
	defer p.close()
	t := newTray()
	b := bar.New(barConfig(home, p, t, logger))
	t.click = b.Click
	if p.attach != nil {
		p.attach(b, t)
	}
	if lost := runTray(b, t, p.busGone, p.exit); lost {
		return fail(stderr, errors.New("the session bus went away, and with it the tray and the banners; wisp-bar ended"),
			"start wisp-bar again in your next desktop session (its autostart does)")
	}
	return 0
}

// systrayLog takes what fyne.io/systray prints with the log package into
// wisp-bar's log. Its registration failures are left out: wisp-bar
// registers the item itself whenever a tray host appears, and says what
// became of it (a failure at start only means no host runs yet).
type systrayLog struct{ logger *log.Logger }

func (s systrayLog) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	if !strings.Contains(line, "systray error: failed to register:") {
		s.logger.Print(line)
	}
	return len(p), nil
}

func barConfig(home config.Home, p platform, t *tray, logger *log.Logger) bar.Config {
	refused := pending.WithRefusals(func(file string, reason error) {
		logger.Printf("skipped %s, which is never shown as approvable: %v", file, reason)
	})
	userHome, _ := os.UserHomeDir()
	return bar.Config{
		Channel: pending.New(home.PendingDir(), refused), Tray: t, Desktop: p.desktop,
		Face: p.face, BannersOff: p.off, AuditFile: home.AuditFile(), Home: userHome,
		Log: func(msg string) { logger.Print(msg) }, Quit: quitTray,
	}
}

// runTray gives the main goroutine to systray until it quits, with the
// bar's loop beside it; SIGINT and SIGTERM quit as the menu's Quit does,
// and so does the end of the session bus, which runTray reports.
func runTray(b *bar.Bar, t *tray, busGone <-chan struct{}, exit func()) (lost bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var busLost atomic.Bool
	go func() {
		select {
		case <-busGone:
			busLost.Store(true)
			t.stop() // nothing more to show, on a bus that is gone
			quitTray()
		case <-ctx.Done():
		}
	}()
	done := make(chan struct{})
	ready := func() {
		t.SetMenu(bar.BuildMenu(bar.View{Now: time.Now()}))
		go func() {
			defer close(done)
			b.Run(ctx)
			quitTray()
		}()
		go refreshOnOpen(ctx, b)
	}
	go quitOnSignal(ctx)
	runSystray(ready, func() {
		if exit != nil {
			exit()
		}
		cancel()
		t.stop()
	})
	select {
	case <-done:
	case <-time.After(stopGuard):
	}
	return busLost.Load()
}

func quitOnSignal(ctx context.Context) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	select {
	case <-signals:
		quitTray()
	case <-ctx.Done():
	}
}

// refreshOnOpen brings the ages in the menu up to date when it opens.
func refreshOnOpen(ctx context.Context, b *bar.Bar) {
	for {
		select {
		case <-systray.TrayOpenedCh:
			b.Refresh()
		case <-ctx.Done():
			return
		}
	}
}
