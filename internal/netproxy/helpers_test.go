package netproxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// names is the test's resolver: every name it knows is 127.0.0.1, and any
// other is not found, so that no test can reach past this machine.
type names map[string]bool

func (n names) lookup(_ context.Context, host string) ([]net.IP, error) {
	if n[host] {
		return []net.IP{net.IPv4(127, 0, 0, 1)}, nil
	}
	return nil, &net.DNSError{Err: "no such host (the test's resolver)", Name: host, IsNotFound: true}
}

// origin is a server on 127.0.0.1 that counts its requests.
type origin struct {
	*httptest.Server
	hits atomic.Int64
}

func newOrigin(t *testing.T, tls bool) *origin {
	o := &origin{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		fmt.Fprintf(w, "hello from %s%s\n", r.Host, r.URL.Path)
	})
	if tls {
		o.Server = httptest.NewTLSServer(h)
	} else {
		o.Server = httptest.NewServer(h)
	}
	t.Cleanup(o.Close)
	return o
}

func (o *origin) port() int { return o.Listener.Addr().(*net.TCPAddr).Port }

// hostURL is the origin's URL under the name host.
func (o *origin) hostURL(host string) string {
	u, _ := url.Parse(o.URL)
	u.Host = net.JoinHostPort(host, strconv.Itoa(o.port()))
	return u.String()
}

// startProxy starts a proxy on 127.0.0.1 with the test's names, closed at
// the end of the test.
func startProxy(t *testing.T, o Options, hosts ...string) *Proxy {
	t.Helper()
	n := names{}
	for _, h := range hosts {
		n[h] = true
	}
	if o.LookupIP == nil {
		o.LookupIP = n.lookup
		o.AllowLocal = true
	}
	p, err := Listen(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// client goes through the proxy, trusting the TLS origin's certificate
// under any name.
func client(p *Proxy, tlsOrigin *httptest.Server) *http.Client {
	proxyURL, _ := url.Parse("http://" + p.Addr())
	tr := &http.Transport{Proxy: http.ProxyURL(proxyURL)}
	if tlsOrigin != nil {
		pool := x509.NewCertPool()
		pool.AddCert(tlsOrigin.Certificate())
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"} // the name httptest's certificate holds
	}
	return &http.Client{Transport: tr}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// rawConnect sends CONNECT target and returns the status line and body.
func rawConnect(t *testing.T, p *Proxy, target string) (string, string) {
	t.Helper()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	b, _ := io.ReadAll(io.LimitReader(c, 4096))
	head, body, _ := strings.Cut(string(b), "\r\n\r\n")
	status, _, _ := strings.Cut(head, "\r\n")
	return status, body
}

// asker answers every question with ans and counts them.
type asker struct {
	mu    sync.Mutex
	asked []Question
	ans   Answer
	gate  chan struct{} // when set, each answer waits for a receive
}

func (a *asker) AskHost(ctx context.Context, q Question) (Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	if a.gate != nil {
		select {
		case <-a.gate:
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		}
	}
	return a.ans, nil
}

func (a *asker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

func mustRules(t *testing.T, allowed, denied []string) Rules {
	t.Helper()
	r, err := ParseRules(allowed, denied)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func itoa(n int) string { return strconv.Itoa(n) }
