package sandboxtest

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// onlyTheProxy: with the network through wisp's proxy, a command connects
// to the proxy's port and to nothing else: another port on the same
// address is refused (and reached with the network on, the control), and
// what the network off closes stays closed (UDP, listen).
func (s *suite) onlyTheProxy(t *testing.T) {
	s.t = t
	if s.o.NoNetworkRules {
		t.Skip("the backend reports no network rules here")
	}
	proxy := greetingListener(t)
	other := s.tcpListener(t, false)
	spec := s.proxySpec(t, proxy)
	if out := s.mustSucceed(spec, s.probe("dial-read", proxy)); !strings.Contains(out, proxyGreeting) {
		t.Fatalf("the command connected, but the proxy's greeting did not come back:\n%s", out)
	}
	s.mustSucceed(s.spec(true), s.probe("dial", other))
	out := s.mustFail(spec, s.probe("dial", other))
	if !strings.Contains(out, "permission denied") && !strings.Contains(out, "connection refused") {
		t.Errorf("a direct connect past the proxy failed, but not as a refusal:\n%s", out)
	}
	t.Run("OtherHostOnTheProxysPort", func(t *testing.T) {
		s.t = t
		s.otherHostOnProxyPort(t, proxy, spec)
	})
	t.Run("UDP", func(t *testing.T) {
		s.t = t
		if s.o.NoUDPRules {
			t.Skip("the backend reports no UDP rules here")
		}
		conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		s.mustFail(spec, s.probe("send-udp", conn.LocalAddr().String()))
		if received(conn) {
			t.Fatal("a datagram sent with the network through the proxy arrived")
		}
	})
	t.Run("Listen", func(t *testing.T) {
		s.t = t
		if s.o.NoMPTCPRules {
			t.Skip("the backend reports no socket filter here")
		}
		s.mustFail(spec, s.probe("listen"))
	})
}

// proxySpec is the suite's spec with the network through a proxy at addr.
func (s *suite) proxySpec(t *testing.T, addr string) sandbox.Spec {
	t.Helper()
	port := addr[strings.LastIndex(addr, ":")+1:]
	p, err := net.LookupPort("tcp", port)
	if err != nil {
		t.Fatal(err)
	}
	return s.spec(false).ThroughProxy(sandbox.NetworkProxy{Port: p})
}

// otherHostOnProxyPort: another address listening on the proxy's port
// number (127.0.0.2 stands for a host elsewhere) is out of reach where the
// helper gives the command a network namespace, and reached where it
// cannot, by Landlock's port rule: the gap the report and trust.md name.
func (s *suite) otherHostOnProxyPort(t *testing.T, proxy string, spec sandbox.Spec) {
	port := proxy[strings.LastIndex(proxy, ":")+1:]
	elsewhere, accepted := countingListener(t, "127.0.0.2:"+port)
	dial := s.probe("dial", elsewhere)
	s.mustSucceed(s.spec(true), dial) // control: the address answers
	if !arrives(accepted) {
		t.Fatal("control: the connection to the other address did not arrive")
	}
	if s.o.NoReadOnlyView {
		s.mustSucceed(spec, dial)
		t.Logf("no network namespace here: %s on the proxy's port is reachable, as the report says", elsewhere)
		return
	}
	s.mustFail(spec, dial)
	if arrivesWithin(accepted, 200*time.Millisecond) {
		t.Fatal("a connection to another host on the proxy's port arrived from inside the command's network namespace")
	}
}

// countingListener listens on addr, greets nobody, and tells of each
// connection it accepts.
func countingListener(t *testing.T, addr string) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	return ln.Addr().String(), accepted
}

// arrives waits a moment for a connection to have been accepted.
func arrives(accepted <-chan struct{}) bool { return arrivesWithin(accepted, 5*time.Second) }

// arrivesWithin is arrives for a connection that should not come: a refused
// connect returns only once the kernel said no, so a short wait suffices.
func arrivesWithin(accepted <-chan struct{}, d time.Duration) bool {
	select {
	case <-accepted:
		return true
	case <-time.After(d):
		return false
	}
}

// proxyGreeting is what the suite's stand-in for the proxy says to every
// connection, so that a command shows it reached the proxy itself and
// not only something listening on its port.
const proxyGreeting = "this is the proxy"

// greetingListener is the stand-in: on 127.0.0.1, it greets and closes.
func greetingListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(proxyGreeting + "\n"))
			c.Close()
		}
	}()
	return ln.Addr().String()
}

// dialRead is the probe's dial-read: connect, and print what comes back.
func dialRead(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	fmt.Printf("%s", b)
	return err
}
