// Package dbustest gives tests a private D-Bus session bus and a stand-in
// notification server on it, so that the D-Bus faces (freedesktop, the bar,
// end-to-end tests) run against a real dbus-daemon without touching the
// session of the person running them and without a display.
//
// The bus is started from a generated configuration with no service
// directories: nothing on it is activated on demand, so a real notification
// daemon installed on the machine can never answer in place of the stand-in.
package dbustest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// startTimeout bounds how long a test waits for dbus-daemon to come up; it
// is a guard against a hang, not a measure of speed.
const startTimeout = 10 * time.Second

// busConfig is a session bus that listens on one socket, authenticates by
// the peer's uid, lets everyone own and send anything, and activates nothing.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// StartSessionBus starts a private dbus-daemon for t, waits until it answers,
// and returns its address (for dbus.Connect or DBUS_SESSION_BUS_ADDRESS). The
// socket is a file named "bus" in a fresh directory, as $XDG_RUNTIME_DIR/bus is.
// The daemon is killed when t ends. Without dbus-daemon the test skips (or
// fails under WISP_REQUIRE_KERNEL=1, as CI installs the dbus package).
func StartSessionBus(t testing.TB) (address string) {
	t.Helper()
	return StartBus(t).Address
}

// Bus is a private session bus that a test can also end, as a session that
// ends under the programs on it.
type Bus struct {
	Address string
	cmd     *exec.Cmd
}

// Kill ends the bus daemon at once; every connection to it ends.
func (b *Bus) Kill() {
	b.cmd.Process.Kill()
}

// StartBus is StartSessionBus, returning the Bus so that the test can end it.
func StartBus(t testing.TB) *Bus {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	testenv.NeedKernel(t, err == nil, "dbus-daemon is not installed (install the dbus package)")
	dir := shortTempDir(t)
	config := filepath.Join(dir, "session.conf")
	if err := os.WriteFile(config, fmt.Appendf(nil, busConfig, filepath.Join(dir, "bus")), 0o600); err != nil {
		t.Fatalf("write the bus configuration: %v", err)
	}
	b := &Bus{}
	b.Address, b.cmd = runDaemon(t, daemon, config)
	waitAnswers(t, b.Address)
	return b
}

// shortTempDir makes a directory for the bus socket. t.TempDir is not used
// because its paths, built from long test names, can exceed the 108 bytes a
// unix socket path may have.
func shortTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wisp-dbus-")
	if err != nil {
		t.Fatalf("make a directory for the bus socket: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// runDaemon starts dbus-daemon in the foreground and reads the address it
// prints once it listens.
func runDaemon(t testing.TB, daemon, config string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(daemon, "--config-file="+config, "--nofork", "--print-address=1")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatalf("pipe dbus-daemon's output: %v", err)
	}
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	address, err := readAddress(stdout)
	if err != nil {
		t.Fatalf("dbus-daemon did not print its address: %v; its stderr: %s", err, stderr.String())
	}
	return address, cmd
}

func readAddress(stdout io.Reader) (string, error) {
	line := make(chan string, 1)
	go func() {
		text, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(text)
	}()
	select {
	case address := <-line:
		if address == "" {
			return "", fmt.Errorf("it exited or printed an empty line")
		}
		return address, nil
	case <-time.After(startTimeout):
		return "", fmt.Errorf("nothing within %v", startTimeout)
	}
}

// waitAnswers connects once and asks the bus for its id, so that a caller
// gets a bus that is serving, not one that is still starting.
func waitAnswers(t testing.TB, address string) {
	t.Helper()
	conn := Dial(t, address)
	var id string
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetId", 0).Store(&id); err != nil {
		t.Fatalf("the private bus at %s does not answer: %v", address, err)
	}
	conn.Close()
}

// Dial opens a new connection to the bus at address, closed when t ends.
// It delivers signals in the order the bus sent them (a sequential signal
// handler), as wisp's own connections do.
func Dial(t testing.TB, address string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(address, dbus.WithSignalHandler(dbus.NewSequentialSignalHandler()))
	if err != nil {
		t.Fatalf("connect to the private bus at %s: %v", address, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// lockedBuffer collects dbus-daemon's stderr, written by exec's copying
// goroutine and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveAs exports methods at path as iface on conn and takes the
// well-known name, as the service a stand-in plays does at its start.
func serveAs(t testing.TB, conn *dbus.Conn, methods any, name string, path dbus.ObjectPath, iface string) {
	t.Helper()
	if err := conn.Export(methods, path, iface); err != nil {
		t.Fatalf("export %s at %s: %v", iface, path, err)
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s on the private bus: reply %v, %v", name, reply, err)
	}
}
