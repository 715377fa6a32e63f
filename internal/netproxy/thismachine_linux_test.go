//go:build linux

package netproxy

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// netnsStageEnv marks the test binary's run inside the network namespace
// the test made.
const netnsStageEnv = "WISP_NETPROXY_TEST_NETNS"

// TestNamesLeadingToThisMachineRefused: a listed name that resolves to an
// address of one of this machine's interfaces (not loopback: a LAN
// address, here a documentation address on an interface the test makes in
// a network namespace of its own) is refused, in IPv4, IPv6 and the
// v4-mapped form, and so is one on an address that came up after the
// proxy started; a service bound to every address answers there, which
// the same proxy with AllowLocal reaches (the control).
func TestNamesLeadingToThisMachineRefused(t *testing.T) {
	if os.Getenv(netnsStageEnv) != "inside" {
		runInNetworkNamespace(t)
		return
	}
	lan := addInterface(t, "wisp0", "192.0.2.10", "2001:db8::10")
	port, hits := countingService(t)
	names := lookupTable{
		"lan4.test":   net.ParseIP("192.0.2.10"),
		"lan6.test":   net.ParseIP("2001:db8::10"),
		"mapped.test": net.ParseIP("::ffff:192.0.2.10"),
		"later.test":  net.ParseIP("192.0.2.11"),
	}
	rules := mustRules(t, []string{"lan4.test", "lan6.test", "mapped.test", "later.test", "192.0.2.10"}, nil)
	strict := startProxy(t, Options{Rules: rules, LookupIP: names.lookup})
	control := startProxy(t, Options{Rules: rules, LookupIP: names.lookup, AllowLocal: true})
	lan.addIPv4Alias(t, "wisp0:1", "192.0.2.11") // after the proxies started
	for _, host := range []string{"lan4.test", "lan6.test", "mapped.test", "later.test"} {
		target := net.JoinHostPort(host, itoa(port))
		if status, body := rawConnect(t, control, target); !strings.Contains(status, " 200 ") {
			t.Fatalf("control: CONNECT %s with AllowLocal = %q %q, want 200: the service does not answer there", target, status, body)
		}
		before := hits.Load()
		status, body := rawConnect(t, strict, target)
		if !strings.Contains(status, " 502 ") || !strings.Contains(body, "an address of this machine") || hits.Load() != before {
			t.Errorf("CONNECT %s (a name on this machine's interface) = %q %q, %d connections arrived; want 502, the reason, none",
				target, status, body, hits.Load()-before)
		}
	}
	// Asked for as itself, the LAN address is what the list names.
	if status, body := rawConnect(t, strict, net.JoinHostPort("192.0.2.10", itoa(port))); !strings.Contains(status, " 200 ") {
		t.Errorf("CONNECT to the listed address itself = %q %q, want 200", status, body)
	}
}

// runInNetworkNamespace runs this test again in a new network namespace
// (as root; otherwise in a user namespace that owns it), where it may make
// interfaces without touching the machine's.
func runInNetworkNamespace(t *testing.T) {
	t.Helper()
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if os.Geteuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), netnsStageEnv+"=inside")
	cmd.SysProcAttr = attr
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		testenv.NeedKernel(t, false, "no network namespace for the test to make its interface in ("+err.Error()+")")
	}
	err := cmd.Wait()
	t.Logf("in a network namespace of its own:\n%s", out.String())
	switch {
	case err != nil:
		t.Fatalf("the run in the network namespace failed: %v", err)
	case strings.Contains(out.String(), "--- SKIP"):
		t.Skip("skipped in the network namespace (above)")
	case !strings.Contains(out.String(), "--- PASS: "+t.Name()):
		t.Fatal("the run in the network namespace did not pass")
	}
}

// lookupTable is the test's resolver: each name to one address.
type lookupTable map[string]net.IP

func (l lookupTable) lookup(_ context.Context, host string) ([]net.IP, error) {
	if ip, ok := l[host]; ok {
		return []net.IP{ip}, nil
	}
	return nil, &net.DNSError{Err: "no such host (the test's resolver)", Name: host, IsNotFound: true}
}

// countingService listens on every address (0.0.0.0 and ::), as a local
// database or dev server does, and counts and closes what it accepts.
func countingService(t *testing.T) (int, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var hits atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, &hits
}

// testInterface is a TUN interface standing in for a LAN card: the
// kernel here may lack the dummy module, and a TUN interface carries
// addresses of this machine just as well.
type testInterface struct {
	name string
	tun  *os.File
}

// addInterface brings up the loopback and an interface named name with
// the IPv4 address v4 (/24) and the IPv6 address v6 (/64).
func addInterface(t *testing.T, name, v4, v6 string) *testInterface {
	t.Helper()
	setUp(t, "lo")
	tun, err := os.OpenFile("/dev/net/tun", os.O_RDWR, 0)
	testenv.NeedKernel(t, err == nil, fmt.Sprintf("cannot open /dev/net/tun to make an interface with (%v)", err))
	t.Cleanup(func() { tun.Close() })
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		t.Fatal(err)
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(int(tun.Fd()), unix.TUNSETIFF, ifr); err != nil {
		t.Fatalf("make the interface %s: %v", name, err)
	}
	i := &testInterface{name: name, tun: tun}
	i.addIPv4Alias(t, name, v4)
	setUp(t, name)
	i.addIPv6(t, v6)
	return i
}

// addIPv4Alias gives the interface the address (/24) under label, its
// name or name:N for one more address.
func (i *testInterface) addIPv4Alias(t *testing.T, label, addr string) {
	t.Helper()
	fd := socket(t, unix.AF_INET)
	for _, set := range []struct {
		req  uint
		addr string
	}{{unix.SIOCSIFADDR, addr}, {unix.SIOCSIFNETMASK, "255.255.255.0"}} {
		ifr, err := unix.NewIfreq(label)
		if err != nil {
			t.Fatal(err)
		}
		if err := ifr.SetInet4Addr(net.ParseIP(set.addr).To4()); err != nil {
			t.Fatal(err)
		}
		if err := unix.IoctlIfreq(fd, set.req, ifr); err != nil {
			t.Fatalf("give %s the address %s: %v", label, set.addr, err)
		}
	}
}

// in6Ifreq is the kernel's struct in6_ifreq.
type in6Ifreq struct {
	addr      [16]byte
	prefixLen uint32
	ifindex   int32
}

func (i *testInterface) addIPv6(t *testing.T, addr string) {
	t.Helper()
	iface, err := net.InterfaceByName(i.name)
	if err != nil {
		t.Fatal(err)
	}
	req := in6Ifreq{prefixLen: 64, ifindex: int32(iface.Index)}
	copy(req.addr[:], net.ParseIP(addr).To16())
	fd := socket(t, unix.AF_INET6)
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCSIFADDR, uintptr(unsafe.Pointer(&req))); errno != 0 {
		testenv.NeedKernel(t, false, "no IPv6 on the test's interface ("+errno.Error()+")")
	}
}

func setUp(t *testing.T, name string) {
	t.Helper()
	fd := socket(t, unix.AF_INET)
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		t.Fatalf("read %s's flags: %v", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		t.Fatalf("bring %s up: %v", name, err)
	}
}

func socket(t *testing.T, family int) int {
	t.Helper()
	fd, err := unix.Socket(family, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}
