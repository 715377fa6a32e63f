package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/godbus/dbus/v5"

	"github.com/wisp-sh/wisp/bar"
	"github.com/wisp-sh/wisp/freedesktop"
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

const watcherName = "org.kde.StatusNotifierWatcher"

// openPlatform connects to the session bus, and to the notification server
// on it when there is one. The tray (systray) opens its own connection to
// the same bus: DBUS_SESSION_BUS_ADDRESS is set to the address found, so it
// never launches a bus of its own.
func openPlatform(logger *log.Logger) (platform, error) {
	address, err := sessionBusAddress()
	if err != nil {
		return platform{}, err
	}
	conn, err := dbus.Connect(address, dbus.WithSignalHandler(dbus.NewSequentialSignalHandler()))
	if err != nil {
		return platform{}, fmt.Errorf("%w: the bus at %s does not answer: %v", errNoSessionBus, address, err)
	}
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", address)
	warnNoTrayHost(conn, logger)
	p := platform{desktop: xdgDesktop{}, close: func() { conn.Close() }}
	n, err := freedesktop.Connect(conn)
	if err != nil {
		p.off = "no notification server on the session bus; answer here"
		logger.Printf("banners are off: %v", err)
		return p, nil
	}
	if err := n.CheckActions(); err != nil {
		logger.Print(err)
	}
	f := newLinuxFace(n)
	p.face = f
	p.close = func() { n.Close(); conn.Close() }
	return p, nil
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

// warnNoTrayHost says so when nothing on the bus shows tray items: the
// menu then stays invisible (GNOME needs the AppIndicator extension),
// though the banners still work.
func warnNoTrayHost(conn *dbus.Conn, logger *log.Logger) {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&has)
	if err == nil && !has {
		logger.Printf("no tray host (%s) on the session bus yet: the menu shows once one starts (on GNOME, enable the AppIndicator extension); banners still work", watcherName)
	}
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
		f.events <- bar.BannerEvent{ID: ev.ID, Action: ev.Action, Closed: ev.Closed}
	}
}

func (f *linuxFace) Show(b bar.Banner) error {
	return f.n.Show(notification(b.ID, b.Title, b.Body, b.Actions))
}

func (f *linuxFace) Withdraw(id string) error { return f.n.Withdraw(id) }

// ShowDetails shows the request's banner again with everything in its
// body: that is where the person clicked.
func (f *linuxFace) ShowDetails(d bar.Details) error {
	return f.n.Show(notification(d.ID, d.Title, d.Text, d.Actions))
}

func (f *linuxFace) Events() <-chan bar.BannerEvent { return f.events }

func notification(id, title, body string, actions []bar.BannerAction) freedesktop.Banner {
	b := freedesktop.Banner{ID: id, Title: title, Body: body, Icon: "dialog-warning"}
	if len(actions) > 0 {
		b.Category = "x-wisp.approval"
	}
	for _, a := range actions {
		b.Actions = append(b.Actions, freedesktop.Action{Key: a.Key, Label: a.Label})
	}
	return b
}

// xdgDesktop opens files with the desktop's default application.
type xdgDesktop struct{}

func (xdgDesktop) Open(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("open %s: %w (wisp writes it at its first command)", path, err)
	}
	opener, err := exec.LookPath("xdg-open")
	if err != nil {
		return fmt.Errorf("xdg-open is not installed (install xdg-utils); read the log with `wisp logs` meanwhile")
	}
	cmd := exec.Command(opener, path)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run xdg-open %s: %w", path, err)
	}
	go cmd.Wait()
	return nil
}

func (xdgDesktop) OpenNotificationSettings() error {
	return errors.New("notification settings are your desktop's own on Linux")
}
