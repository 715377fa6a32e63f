package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"

	"github.com/wisp-sh/wisp/internal/bar"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/freedesktop"
	"github.com/wisp-sh/wisp/internal/newest"
)

// errNoSessionBus: there is no session bus, so neither the tray nor the
// banners can be shown. fyne.io/systray v1.12.2, the newest release, also
// crashes at exit when it never reached a bus, so wisp-bar refuses to start
// rather than start the tray.
var errNoSessionBus = errors.New("no D-Bus session bus, which the tray and the banners need")

var platformHints = []string{
	"run wisp-bar inside your desktop session, where DBUS_SESSION_BUS_ADDRESS is set (or $XDG_RUNTIME_DIR/bus exists)",
	"until then, answer waiting requests with `wisp approvals`",
}

// recordFile is where the notifier keeps the ids of the banners it shows,
// under wisp's home, where no confined command can write.
func recordFile(home config.Home) string {
	dir, err := home.Ensure("cache")
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "wisp-bar-banners.json")
}

// openPlatform connects to the session bus and attaches the notifier,
// with or without a notification server there now. The tray (systray) opens
// its own connection to the same bus: DBUS_SESSION_BUS_ADDRESS is set to the
// address found, so it never launches a bus of its own.
func openPlatform(home config.Home, logger *log.Logger) (platform, error) {
	address, err := sessionBusAddress()
	if err != nil {
		return platform{}, err
	}
	conn, err := dbus.Connect(address, dbus.WithSignalHandler(dbus.NewSequentialSignalHandler()))
	if err != nil {
		return platform{}, fmt.Errorf("%w: the bus at %s does not answer: %v", errNoSessionBus, address, err)
	}
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", address)
	// systray's connection, made here so that it exists before the tray
	// starts: fyne.io/systray v1.12.2 crashes at exit without one.
	if systrayConn, err = dbus.SessionBus(); err != nil {
		conn.Close()
		return platform{}, fmt.Errorf("%w: the bus at %s does not answer: %v", errNoSessionBus, address, err)
	}
	statuses := newest.New[freedesktop.Status]()
	n, err := freedesktop.Attach(conn, freedesktop.Options{Status: statuses.Put, Record: recordFile(home)})
	if err != nil {
		conn.Close()
		return platform{}, fmt.Errorf("%w: %v", errNoSessionBus, err)
	}
	status := n.Status()
	sayWhatShows(logger, hasTrayHost(conn), status)
	p := platform{face: newLinuxFace(n), off: bannersOff(status), desktop: xdgDesktop{home: home},
		busGone: conn.Context().Done(), close: func() { n.Close(); conn.Close() }}
	p.attach = func(b *bar.Bar, t *tray) {
		go followServer(statuses, b, logger)
		go followTrayHost(conn, t, logger)
	}
	return p, nil
}

// bannersOff is why the bar shows no banners, "" when it can.
func bannersOff(s freedesktop.Status) string {
	if s.Err != nil {
		return "no notification server on the session bus; answer here"
	}
	return ""
}

// sayWhatShows tells, once, what on the bus shows wisp-bar, and what not.
func sayWhatShows(logger *log.Logger, trayHost bool, s freedesktop.Status) {
	switch {
	case !trayHost && s.Err != nil:
		logger.Printf("nothing on the session bus shows wisp-bar yet: no tray host (%s) and no notification server (org.freedesktop.Notifications); "+
			"wisp-bar keeps running and shows itself when either starts (on GNOME, enable the AppIndicator extension); answer with `wisp approvals` meanwhile", watcherName)
	case !trayHost:
		logger.Printf("no tray host (%s) on the session bus yet: the menu shows once one starts (on GNOME, enable the AppIndicator extension); banners show meanwhile", watcherName)
	case s.Err != nil:
		logger.Printf("banners are off until a notification server starts; the menu answers meanwhile: %v", s.Err)
	}
	if s.Err == nil && s.NoButtons != nil {
		logger.Print(s.NoButtons)
	}
}

// followServer tells the bar, and the log, when a notification server comes
// or goes: banners are raised again on the new one.
func followServer(statuses *newest.Value[freedesktop.Status], b *bar.Bar, logger *log.Logger) {
	for range statuses.Ready() {
		s := statuses.Take()
		if s.Err != nil {
			logger.Printf("banners are off: %v", s.Err)
		} else {
			logger.Printf("banners are on: %s %s shows them", s.Server.Name, s.Server.Version)
			if s.NoButtons != nil {
				logger.Print(s.NoButtons)
			}
		}
		b.SetBannerStatus(bar.BannerStatus{Off: bannersOff(s)})
	}
}

// sessionBusAddress finds the bus as libdbus does, without autolaunch.
func sessionBusAddress() (string, error) {
	if address := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); address != "" {
		return address, nil
	}
	runtime := os.Getenv("XDG_RUNTIME_DIR")
	if runtime == "" {
		runtime = fmt.Sprintf("/run/user/%d", os.Getuid())
	}
	socket := filepath.Join(runtime, "bus")
	if info, err := os.Stat(socket); err == nil && info.Mode().Type() == os.ModeSocket {
		return "unix:path=" + socket, nil
	}
	return "", fmt.Errorf("%w: DBUS_SESSION_BUS_ADDRESS is not set and %s is not a bus socket", errNoSessionBus, socket)
}

// linuxFace shows bar's banners as freedesktop notifications.
type linuxFace struct {
	n      *freedesktop.Notifier
	events chan bar.BannerEvent
}

func newLinuxFace(n *freedesktop.Notifier) *linuxFace {
	f := &linuxFace{n: n, events: make(chan bar.BannerEvent, 64)}
	go f.translate()
	return f
}

func (f *linuxFace) translate() {
	defer close(f.events)
	for ev := range f.n.Events() {
		f.events <- bar.BannerEvent{ID: ev.ID, Action: ev.Action, Closed: ev.Closed, Serial: ev.Serial}
	}
}

func (f *linuxFace) Show(b bar.Banner) error {
	return f.n.Show(notification(b.ID, b.Title, b.Body, b.Actions, b.Urgent, b.Serial))
}

func (f *linuxFace) Withdraw(id string) error { return f.n.Withdraw(id) }

// ShowDetails shows the request's banner again with everything in its
// body: that is where the person clicked.
func (f *linuxFace) ShowDetails(d bar.Details) error {
	return f.n.Show(notification(d.ID, d.Title, d.Text, d.Actions, d.Urgent, d.Serial))
}

func (f *linuxFace) Events() <-chan bar.BannerEvent { return f.events }

// notification is a banner as the server gets it: a request's stays until
// answered, critical when it would run outside the sandbox; a notice (no
// actions) is ordinary and goes by itself.
func notification(id, title, body string, actions []bar.BannerAction, urgent bool, serial uint64) freedesktop.Banner {
	b := freedesktop.Banner{ID: id, Title: title, Body: body, Icon: "dialog-warning", Serial: serial, Urgency: freedesktop.UrgencyNormal}
	if len(actions) == 0 {
		b.Icon, b.Expire = "dialog-information", true
	} else {
		b.Category, b.Resident = "x-wisp.approval", true
	}
	if urgent {
		b.Urgency = freedesktop.UrgencyCritical
	}
	for _, a := range actions {
		b.Actions = append(b.Actions, freedesktop.Action{Key: a.Key, Label: a.Label})
	}
	return b
}
