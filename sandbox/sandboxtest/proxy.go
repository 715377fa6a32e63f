package sandboxtest

import (
	"net"
	"strings"
	"testing"

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
	proxy, other := s.tcpListener(t, false), s.tcpListener(t, false)
	spec := s.proxySpec(t, proxy)
	s.mustSucceed(spec, s.probe("dial", proxy))
	s.mustSucceed(s.spec(true), s.probe("dial", other))
	out := s.mustFail(spec, s.probe("dial", other))
	if !strings.Contains(out, "permission denied") && !strings.Contains(out, "connection refused") {
		t.Errorf("a direct connect past the proxy failed, but not as a refusal:\n%s", out)
	}
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
