package freedesktop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// ErrNoSessionBus: no session bus could be found or reached.
var ErrNoSessionBus = errors.New("no D-Bus session bus")

const sessionBusEnv = "DBUS_SESSION_BUS_ADDRESS"

// ConnectSession opens wisp's own connection to the session bus and makes a
// Notifier on it; Close closes that connection. It never starts a bus: when
// DBUS_SESSION_BUS_ADDRESS is unset and the default socket is missing, or the
// bus does not answer, the error says which, wrapping ErrNoSessionBus.
func ConnectSession() (*Notifier, error) {
	address, source, err := sessionBusAddress()
	if err != nil {
		return nil, err
	}
	conn, err := dbus.Connect(address, dbus.WithSignalHandler(dbus.NewSequentialSignalHandler()))
	if err != nil {
		return nil, fmt.Errorf("%w: cannot reach the bus at %q (from %s): %w; run wisp-bar inside your desktop session, where that bus runs",
			ErrNoSessionBus, address, source, err)
	}
	n, err := Connect(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	n.ownsConn = true
	return n, nil
}

// sessionBusAddress finds the bus as libdbus and sd-bus do, less the
// autolaunch that godbus would otherwise try (it starts a bus nobody's
// notification server is on). source names where the address came from.
func sessionBusAddress() (address, source string, err error) {
	if address := os.Getenv(sessionBusEnv); address != "" {
		return address, sessionBusEnv, nil
	}
	socket := defaultSessionSocket()
	if info, err := os.Stat(socket); err == nil && info.Mode().Type() == os.ModeSocket {
		return "unix:path=" + socket, socket, nil
	}
	return "", "", fmt.Errorf("%w: %s is not set and %s is not a bus socket; run wisp-bar inside your desktop session (or under dbus-run-session)",
		ErrNoSessionBus, sessionBusEnv, socket)
}

// defaultSessionSocket is the per-user bus of systemd and dbus-broker:
// $XDG_RUNTIME_DIR/bus, or /run/user/<uid>/bus.
func defaultSessionSocket() string {
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "bus")
	}
	return fmt.Sprintf("/run/user/%d/bus", os.Getuid())
}
