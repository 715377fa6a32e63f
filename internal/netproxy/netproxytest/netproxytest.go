// Package netproxytest starts wisp's real network proxy for other
// packages' tests: the sandbox's conformance suite reaches it through
// sandboxtest.StartProxy, since the sandbox packages link no net/http.
package netproxytest

import (
	"context"
	"net"
	"testing"

	"github.com/wisp-sh/wisp/internal/netproxy"
	_ "github.com/wisp-sh/wisp/internal/netproxy/httpproxy" // the proxy whole, as wisp-agent links it
)

// Start starts the proxy on 127.0.0.1, letting the names of listed
// through, each resolved to its address and no other name resolved, with
// allowLocal as its AllowLocal, and returns its address. It stops with
// the test. Its signature is sandboxtest.StartProxy's.
func Start(t *testing.T, listed map[string]net.IP, allowLocal bool) string {
	t.Helper()
	var names []string
	for name := range listed {
		names = append(names, name)
	}
	rules, err := netproxy.ParseRules(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(_ context.Context, host string) ([]net.IP, error) {
		if ip, ok := listed[host]; ok {
			return []net.IP{ip}, nil
		}
		return nil, &net.DNSError{Err: "no such host (the suite's resolver)", Name: host, IsNotFound: true}
	}
	p, err := netproxy.Listen(netproxy.Options{Rules: rules, LookupIP: lookup, AllowLocal: allowLocal})
	if err != nil {
		t.Fatalf("start wisp's proxy: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p.Addr()
}
