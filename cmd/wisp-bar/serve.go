//go:build !darwin || cgo

package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fyne.io/systray"

	"github.com/wisp-sh/wisp/bar"
	"github.com/wisp-sh/wisp/config"
	"github.com/wisp-sh/wisp/pending"
)

// stopGuard bounds the wait for the bar's loop once the tray has stopped.
const stopGuard = 5 * time.Second

// platform is what one system gives wisp-bar besides the tray.
type platform struct {
	face    bar.Face // nil: no banners, and off says why
	off     string
	desktop bar.Desktop
	attach  func(*bar.Bar) // starts what reports to the bar; may be nil
	close   func()         // withdraws what is left and disconnects
}

// serve runs wisp-bar until Quit or SIGINT/SIGTERM.
func serve(home config.Home, stderr io.Writer) int {
	logger := log.New(stderr, "wisp-bar: ", log.LstdFlags)
	p, err := openPlatform(logger)
	if err != nil {
		return fail(stderr, err, platformHints...)
	}
	defer p.close()
	t := newTray()
	b := bar.New(barConfig(home, p, t, logger))
	t.click = b.Click
	if p.attach != nil {
		p.attach(b)
	}
	runTray(b, t)
	return 0
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
// bar's loop beside it; SIGINT and SIGTERM quit as the menu's Quit does.
func runTray(b *bar.Bar, t *tray) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
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
	runSystray(ready, func() { cancel(); t.stop() })
	select {
	case <-done:
	case <-time.After(stopGuard):
	}
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
