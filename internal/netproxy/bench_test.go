package netproxy

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The figures of issue 18, each against the same server on 127.0.0.1 in
// one run, with a bare TCP relay as the floor: run with
//
//	go test ./netproxy -run '^$' -bench . -benchtime 5x
//
// A ratio is the time through the proxy over the time direct.

const mib = 1 << 20

// blobServer serves n bytes of zeros at every path.
func blobServer(b *testing.B) *httptest.Server {
	buf := make([]byte, 256<<10)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Length", strconv.Itoa(n))
		for n > 0 {
			k := min(n, len(buf))
			w.Write(buf[:k])
			n -= k
		}
	}))
	b.Cleanup(s.Close)
	return s
}

func benchProxy(b *testing.B) *Proxy {
	p, err := Listen(Options{Rules: mustRulesB(b, "blob.test"), LookupIP: names{"blob.test": true}.lookup, AllowLocal: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

func mustRulesB(b *testing.B, hosts ...string) Rules {
	r, err := ParseRules(hosts, nil)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// clients: direct to the server, through the proxy in plain HTTP, and
// through a CONNECT tunnel (as every HTTPS download goes).
func clients(p *Proxy, conns int) map[string]*http.Client {
	proxyURL, _ := url.Parse("http://" + p.Addr())
	direct := &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true,
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) { return dialLoopback(ctx, addr) }}
	plain := &http.Transport{Proxy: http.ProxyURL(proxyURL), MaxIdleConnsPerHost: conns, DisableCompression: true}
	tunnel := &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true,
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) { return dialThrough(p, addr) }}
	relay := &http.Transport{MaxIdleConnsPerHost: conns, DisableCompression: true,
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) { return dialRelay(ctx, addr) }}
	return map[string]*http.Client{"direct": {Transport: direct}, "proxy": {Transport: plain}, "connect": {Transport: tunnel},
		"relay": {Transport: relay}}
}

// dialRelay connects through a bare relay, io.Copy both ways and nothing
// else: the floor any proxy on this machine stands on.
func dialRelay(ctx context.Context, addr string) (net.Conn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go func() {
		defer ln.Close()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := dialLoopback(ctx, addr)
		if err != nil {
			c.Close()
			return
		}
		go func() { io.Copy(up, c); closeWrite(up) }()
		io.Copy(c, up)
		closeWrite(c)
	}()
	return net.Dial("tcp", ln.Addr().String())
}

// dialLoopback dials the port of addr on 127.0.0.1: the direct client's
// name for the server, never looked up.
func dialLoopback(ctx context.Context, addr string) (net.Conn, error) {
	_, port, _ := net.SplitHostPort(addr)
	var d net.Dialer
	return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", port))
}

// dialThrough opens a CONNECT tunnel to addr through the proxy.
func dialThrough(p *Proxy, addr string) (net.Conn, error) {
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr)
	const ok = "HTTP/1.1 200 Connection established\r\n\r\n"
	buf := make([]byte, len(ok))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != ok {
		c.Close()
		return nil, fmt.Errorf("CONNECT %s: %q %v", addr, buf, err)
	}
	return c, nil
}

func fetch(c *http.Client, u string) (int64, error) {
	resp, err := c.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return io.Copy(io.Discard, resp.Body)
}

// BenchmarkDownload100MiB: one 100 MiB download direct, through the proxy
// in plain HTTP and through CONNECT. Goal: at most 1.2x direct.
func BenchmarkDownload100MiB(b *testing.B) {
	s, p := blobServer(b), benchProxy(b)
	cs := clients(p, 1)
	u := blobURL(s, 100*mib)
	var took = map[string]time.Duration{}
	for b.Loop() {
		for _, name := range []string{"direct", "relay", "proxy", "connect"} {
			start := time.Now()
			n, err := fetch(cs[name], u)
			if err != nil || n != 100*mib {
				b.Fatalf("%s: %d bytes, %v", name, n, err)
			}
			took[name] += time.Since(start)
		}
	}
	b.SetBytes(4 * 100 * mib)
	for _, name := range []string{"direct", "relay", "proxy", "connect"} {
		b.ReportMetric(float64(100*mib*b.N)/took[name].Seconds()/mib, name+"-MiB/s")
	}
	b.ReportMetric(took["proxy"].Seconds()/took["direct"].Seconds(), "proxy-x")
	b.ReportMetric(took["connect"].Seconds()/took["direct"].Seconds(), "connect-x")
	b.ReportMetric(took["relay"].Seconds()/took["direct"].Seconds(), "relay-x")
}

func blobURL(s *httptest.Server, n int) string {
	u, _ := url.Parse(s.URL)
	u.Host = "blob.test:" + u.Port()
	return u.String() + "/blob?n=" + strconv.Itoa(n)
}

// BenchmarkRequestLatency: the time of one small request on a kept-alive
// connection, and of one on a new connection, direct and through the
// proxy: the added p50 and p99. Goal: p99 added at most 2 ms.
func BenchmarkRequestLatency(b *testing.B) {
	s, p := blobServer(b), benchProxy(b)
	const rounds = 200
	for _, fresh := range []bool{false, true} {
		name := "kept-alive"
		if fresh {
			name = "new-connection"
		}
		b.Run(name, func(b *testing.B) {
			u := blobURL(s, 64)
			var direct, proxied []time.Duration
			for b.Loop() {
				cs := clients(p, 1)
				for range rounds {
					for _, c := range []struct {
						client *http.Client
						into   *[]time.Duration
					}{{cs["direct"], &direct}, {cs["proxy"], &proxied}} {
						if fresh {
							c.client.Transport.(*http.Transport).CloseIdleConnections()
						}
						start := time.Now()
						if _, err := fetch(c.client, u); err != nil {
							b.Fatal(err)
						}
						*c.into = append(*c.into, time.Since(start))
					}
				}
			}
			for _, q := range []float64{0.5, 0.99} {
				d, pr := quantile(direct, q), quantile(proxied, q)
				b.ReportMetric(ms(pr-d), fmt.Sprintf("added-p%.0f-ms", q*100))
				b.ReportMetric(ms(pr), fmt.Sprintf("proxy-p%.0f-ms", q*100))
				b.ReportMetric(ms(d), fmt.Sprintf("direct-p%.0f-ms", q*100))
			}
		})
	}
}

// Benchmark100Connections: 100 connections at once, each downloading
// 1 MiB through a CONNECT tunnel, against the same direct.
func Benchmark100Connections(b *testing.B) {
	s, p := blobServer(b), benchProxy(b)
	const conns = 100
	u := blobURL(s, mib)
	took := map[string]time.Duration{}
	for b.Loop() {
		cs := clients(p, conns)
		for _, name := range []string{"direct", "connect"} {
			start := time.Now()
			var wg sync.WaitGroup
			errs := make(chan error, conns)
			for range conns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if n, err := fetch(cs[name], u); err != nil || n != mib {
						errs <- fmt.Errorf("%s: %d bytes, %v", name, n, err)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				b.Fatal(err)
			}
			took[name] += time.Since(start)
		}
	}
	b.ReportMetric(took["connect"].Seconds()/took["direct"].Seconds(), "connect-x")
	b.ReportMetric(ms(took["connect"]/time.Duration(b.N)), "connect-ms")
	b.ReportMetric(ms(took["direct"]/time.Duration(b.N)), "direct-ms")
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
