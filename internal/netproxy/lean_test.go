package netproxy

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
)

// The lean wisp's proxy, with no HTTP front registered (this test binary
// has httpproxy's, from front_test.go, which these take away while they
// run): it never starts, and one served regardless speaks no HTTP through.

// withoutHTTPFront is the proxy as the lean wisp links it. No test of this
// package runs in parallel with another, so none sees it.
func withoutHTTPFront(t *testing.T) {
	saved := httpFront
	httpFront = nil
	t.Cleanup(func() { httpFront = saved })
}

func TestLeanProxyRefusesToStart(t *testing.T) {
	withoutHTTPFront(t)
	p, err := Listen(Options{})
	if err == nil {
		p.Close()
		t.Fatal("the lean proxy started")
	}
	if !strings.Contains(err.Error(), "wisp-agent") {
		t.Errorf("the refusal does not say what runs such a command: %v", err)
	}
}

func TestLeanProxyForwardsNothing(t *testing.T) {
	withoutHTTPFront(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	allowAll, err := ParseRules([]string{"example.com"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Rules: allowAll})
	go p.Serve(ln)
	defer p.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("read the answer: %v", err)
	}
	if resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("the lean proxy answered a CONNECT with %s, want 501", resp.Status)
	}
}
