package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// realDesk is a private session bus with dunst on it, drawing on an Xvfb
// display: a real notification server, driven with dunstctl as a person's
// keys drive it. Its context menu (dunst's "dmenu" setting) is a script
// that picks the line the test asks for.
type realDesk struct {
	*desk
	env  []string // DISPLAY and the bus, for dunstctl
	want string   // the file the menu script reads the line to pick from
	sent chan *dbus.Message
}

func needDunst(t *testing.T) {
	t.Helper()
	for _, program := range []string{"dunst", "dunstctl", "Xvfb", "dbus-send"} {
		_, err := exec.LookPath(program)
		testenv.NeedKernel(t, err == nil, program+" is not installed (install the dunst and xvfb packages)")
	}
}

func newRealDesk(t *testing.T) *realDesk {
	t.Helper()
	needDunst(t)
	d := &realDesk{desk: &desk{address: dbustest.StartSessionBus(t), home: wispHome(t)}}
	d.watcher = dbustest.StartWatcher(t, d.address)
	d.client = trayClient{conn: dbustest.Dial(t, d.address)}
	d.sent = monitorNotify(t, d.address)
	display := startXvfb(t)
	d.env = append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+d.address)
	d.want = startDunst(t, d.env)
	waitOwner(t, d.client.conn, dbustest.NotificationsName)
	return d
}

// startXvfb starts a virtual X display and returns its name.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1024x768x24")
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	// SIGTERM, not SIGKILL: Xvfb then removes its socket and lock
	// (/tmp/.X11-unix/X0, /tmp/.X0-lock), which a killed one leaves behind.
	t.Cleanup(func() { stopGently(cmd) })
	line := make(chan string, 1)
	go func() {
		text, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(text)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb exited without a display")
		}
		return ":" + n
	case <-time.After(guard):
		t.Fatal("Xvfb printed no display")
	}
	return ""
}

// stopGently ends cmd with SIGTERM, and kills it if it has not ended soon.
func stopGently(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(guard):
		cmd.Process.Kill()
		<-done
	}
}

// startDunst runs dunst with a configuration of its own and returns the
// file its context menu script reads the line to pick from.
func startDunst(t *testing.T, env []string) string {
	t.Helper()
	dir := t.TempDir()
	want, menu := filepath.Join(dir, "want"), filepath.Join(dir, "menu.sh")
	os.WriteFile(want, nil, 0o600)
	script := fmt.Sprintf("#!/bin/sh\ncat > %s/offered\ngrep -F -m1 -f %s %s/offered\n", dir, want, dir)
	if err := os.WriteFile(menu, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "dunstrc")
	os.WriteFile(config, []byte("[global]\n    dmenu = "+menu+"\n"), 0o600)
	cmd := exec.Command("dunst", "-config", config)
	cmd.Env = env
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dunst: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("dunst said:\n%s", out.String())
		}
	})
	return want
}

func waitOwner(t *testing.T, conn *dbus.Conn, name string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		var has bool
		if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has); err == nil && has {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared on the bus", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// monitorNotify hears every Notify call on the bus, as dbus-monitor does,
// so the test knows what wisp-bar asked dunst to show.
func monitorNotify(t *testing.T, address string) chan *dbus.Message {
	t.Helper()
	conn := dbustest.Dial(t, address)
	rule := "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"
	if err := conn.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, []string{rule}, uint32(0)).Err; err != nil {
		t.Fatalf("monitor the bus: %v", err)
	}
	sent := make(chan *dbus.Message, 64)
	conn.Eavesdrop(sent)
	return sent
}

// nextSent waits for a Notify call whose body contains part and returns
// its hints.
func (d *realDesk) nextSent(t *testing.T, part string) map[string]dbus.Variant {
	t.Helper()
	deadline := time.After(guard)
	for {
		select {
		case m := <-d.sent:
			if len(m.Body) == 8 {
				body, _ := m.Body[4].(string)
				hints, _ := m.Body[6].(map[string]dbus.Variant)
				if strings.Contains(body, part) {
					return hints
				}
			}
		case <-deadline:
			t.Fatalf("wisp-bar never asked dunst to show %q", part)
		}
	}
}

func (d *realDesk) dunstctl(t *testing.T, args ...string) string {
	t.Helper()
	return d.run(t, "dunstctl", args...)
}

// run runs program on the desk's display and bus, and gives its output.
func (d *realDesk) run(t *testing.T, program string, args ...string) string {
	t.Helper()
	cmd := exec.Command(program, args...)
	cmd.Env = d.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", program, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// waitDisplayed waits until dunst shows n notifications.
func (d *realDesk) waitDisplayed(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		got := d.dunstctl(t, "count", "displayed")
		if got == fmt.Sprint(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("dunst shows %s notifications, want %d; its history:\n%s", got, n, d.dunstctl(t, "history"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pick chooses the action labelled label in dunst's context menu, as a
// person does with its menu key.
func (d *realDesk) pick(t *testing.T, label string) {
	t.Helper()
	if err := os.WriteFile(d.want, []byte("#"+label+" ("), 0o600); err != nil {
		t.Fatal(err)
	}
	d.dunstctl(t, "context")
}

// Against dunst itself: Approve once of a banner answers, and the banner
// goes; the click on a banner's body shows the Details in its place,
// whose Approve once answers too. The outside-sandbox banner is critical.
func TestDunstApproveOnceOfABannerAndOfItsDetails(t *testing.T) {
	d := newRealDesk(t)
	d.startBar(t)

	first := fileRequest(t, d.home, "brew upgrade", true)
	if hints := d.nextSent(t, "brew upgrade"); hints["urgency"].Value() != byte(2) || hints["resident"].Value() != true {
		t.Errorf("the outside-sandbox banner went with hints %v, want urgency 2 (critical) and resident", hints)
	}
	d.waitDisplayed(t, 1)
	d.pick(t, "Approve once")
	if e := first.decided(t); !e.Approved || e.Scope != "once" || e.By != "wisp-bar" {
		t.Errorf("decision %+v", e)
	}
	d.waitDisplayed(t, 0)
	history := d.dunstctl(t, "history")
	for _, want := range []string{"wisp: approve OUTSIDE the sandbox", "brew upgrade"} {
		if !strings.Contains(history, want) {
			t.Errorf("dunst's history lacks %q:\n%s", want, history)
		}
	}

	second := fileRequest(t, d.home, "cargo install ripgrep", true)
	d.nextSent(t, "cargo install ripgrep")
	d.waitDisplayed(t, 1)
	d.dunstctl(t, "action", "0") // the body's click: its default action
	d.nextSent(t, "binding ")
	d.waitDisplayed(t, 1)
	d.pick(t, "Approve once")
	if e := second.decided(t); !e.Approved || e.Scope != "once" {
		t.Errorf("decision from the details %+v", e)
	}
	d.waitDisplayed(t, 0)
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
}

// Against dunst: Quit takes every banner off the screen, Details included.
func TestDunstQuitLeavesNothingOnScreen(t *testing.T) {
	d := newRealDesk(t)
	p := d.startBar(t)
	fileRequest(t, d.home, "make deploy", false)
	fileRequest(t, d.home, "make release", false)
	d.waitDisplayed(t, 2)
	d.dunstctl(t, "action", "0")
	d.nextSent(t, "binding ")
	m := d.client.waitMenu(t, "the requests", has("make release"))
	d.client.click(t, mustFind(t, m, "Quit").ID)
	p.wait(t)
	d.waitDisplayed(t, 0)
}
