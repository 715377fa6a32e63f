package sandboxtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// StartProxy starts wisp's network proxy (netproxy) for the suite, in the
// test's process, on 127.0.0.1, letting the names of listed through, each
// resolved to its address, and returns its address; it stops with the
// test. allowLocal is the proxy's AllowLocal. This package links no
// net/http, as sandbox may not, so a test package that may sets it
// (netproxytest.Start); left nil, the cases that need it fail.
var StartProxy func(t *testing.T, listed map[string]net.IP, allowLocal bool) string

// proxyRefusesThisMachine (issue 26, item 5): with the network through
// wisp's proxy, a command reaches none of this machine's services on its
// own LAN address, where a service bound to every address answers: not by
// a listed name the proxy resolves there, nor directly. The same proxy
// with AllowLocal, and a direct dial with the network on, reach it (the
// controls).
func (s *suite) proxyRefusesThisMachine(t *testing.T) {
	s.t = t
	switch {
	case s.o.NoNetworkRules:
		t.Skip("the backend reports no network rules here")
	case StartProxy == nil:
		t.Fatal("the suite was given no proxy: the test package's TestMain sets sandboxtest.StartProxy (netproxytest.Start)")
	}
	own := ownAddress(t)
	service, accepted := countingListener(t, "0.0.0.0:0")
	_, port, _ := net.SplitHostPort(service)
	listed := map[string]net.IP{"lan.wisp.test": own}
	target := net.JoinHostPort("lan.wisp.test", port)
	direct := net.JoinHostPort(own.String(), port)

	loose := StartProxy(t, listed, true)
	if out, code := s.plain(s.probe("connect-via", loose, target)); code != 0 || !arrives(accepted) {
		t.Fatalf("control: through the proxy with AllowLocal, %s was not reached (status %d):\n%s", target, code, out)
	}
	strict := StartProxy(t, listed, false)
	out, code := s.confined(s.proxySpec(t, strict), s.probe("connect-via", strict, target))
	arrived := arrivesWithin(accepted, 100*time.Millisecond)
	if code == 0 || !strings.Contains(out, "an address of this machine") || arrived {
		t.Errorf("confined, a listed name on this machine's address %s went through the proxy (status %d, arrived %v):\n%s", own, code, arrived, out)
	}
	s.mustSucceed(s.spec(true), s.probe("dial", direct))
	if !arrives(accepted) {
		t.Fatal("control: with the network on, the direct connection did not arrive")
	}
	s.mustFail(s.proxySpec(t, strict), s.probe("dial", direct))
	if arrivesWithin(accepted, 100*time.Millisecond) {
		t.Errorf("confined, a direct connection to this machine's address %s arrived past the proxy", direct)
	}
}

// ownAddress is an address of one of this machine's interfaces that is not
// loopback or link-local: its LAN address.
func ownAddress(t *testing.T) net.IP {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatalf("list this machine's addresses: %v", err)
	}
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.To4()
		}
	}
	t.Skipf("this machine has no IPv4 address but loopback and link-local ones (%v): nothing to try", addrs)
	return nil
}

// proxyProbe is the probe's
//
//	connect-via PROXY TARGET  ask the HTTP proxy at PROXY to CONNECT to
//	                          TARGET; print its answer; fail unless 200
//
// It reports whether op was its own.
func proxyProbe(op string, args []string) (bool, error) {
	if op != "connect-via" || len(args) != 2 {
		return false, nil
	}
	return true, connectVia(args[0], args[1])
}

func connectVia(proxy, target string) error {
	c, err := net.DialTimeout("tcp", proxy, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	r := bufio.NewReader(c)
	status, err := r.ReadString('\n')
	rest, _ := io.ReadAll(io.LimitReader(r, 4096))
	fmt.Printf("%s%s\n", status, rest)
	switch {
	case err != nil:
		return fmt.Errorf("read the proxy's answer: %w", err)
	case !strings.Contains(status, " 200 "):
		return fmt.Errorf("the proxy said %s", strings.TrimSpace(status))
	}
	return nil
}
