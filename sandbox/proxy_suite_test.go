package sandbox_test

import (
	"context"
	"net"
	"testing"

	"github.com/wisp-sh/wisp/netproxy"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// The suite's cases that need wisp's real proxy get it from here: the
// sandbox packages may not link net/http, but their tests may.
func init() { sandboxtest.StartProxy = startProxy }

func startProxy(t *testing.T, listed map[string]net.IP, allowLocal bool) string {
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
