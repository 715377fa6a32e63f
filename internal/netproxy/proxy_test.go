package netproxy

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAllowedHostReachedOverHTTP(t *testing.T) {
	o := newOrigin(t, false)
	var decisions []Decision
	p := startProxy(t, Options{Rules: mustRules(t, []string{"registry.test"}, nil),
		OnDecision: func(d Decision) { decisions = append(decisions, d) }}, "registry.test")
	end := p.Begin(t.Context(), "c1", "curl http://registry.test/pkg")
	status, body := get(t, client(p, nil), o.hostURL("registry.test")+"/pkg")
	if status != 200 || body != "hello from registry.test:"+itoa(o.port())+"/pkg\n" {
		t.Fatalf("GET through the proxy = %d %q, want 200 and the origin's greeting", status, body)
	}
	if refused := end(); len(refused) != 0 {
		t.Errorf("refusals = %v, want none", refused)
	}
	if len(decisions) != 1 || !decisions[0].Allowed || decisions[0].By != "allowedDomains" || decisions[0].CommandID != "c1" || decisions[0].Command != "curl http://registry.test/pkg" {
		t.Errorf("decisions = %+v, want one allowed by allowedDomains for c1", decisions)
	}
}

func TestTLSThroughConnect(t *testing.T) {
	o := newOrigin(t, true)
	p := startProxy(t, Options{Rules: mustRules(t, []string{"*.pkg.test"}, nil)}, "cdn.pkg.test")
	status, body := get(t, client(p, o.Server), o.hostURL("cdn.pkg.test")+"/a.tgz")
	if status != 200 || !strings.HasPrefix(body, "hello from cdn.pkg.test") {
		t.Fatalf("GET https through CONNECT = %d %q, want 200 from the TLS origin", status, body)
	}
}

func TestDeniedHostRefusedWith403(t *testing.T) {
	o := newOrigin(t, false)
	p := startProxy(t, Options{Rules: mustRules(t, []string{"*.pkg.test", "evil.test"}, []string{"evil.test"}), Ask: &asker{ans: Answer{Allowed: true}}}, "evil.test")
	end := p.Begin(t.Context(), "c1", "curl evil.test")
	status, body := get(t, client(p, nil), o.hostURL("evil.test"))
	want := "wisp: network to evil.test:" + itoa(o.port()) + " refused: in deniedDomains\n"
	if status != http.StatusForbidden || body != want {
		t.Fatalf("GET a denied host = %d %q, want 403 %q", status, body, want)
	}
	line, body := rawConnect(t, p, "evil.test:"+itoa(o.port()))
	if !strings.Contains(line, " 403 ") || body != want {
		t.Fatalf("CONNECT to a denied host = %q %q, want a 403 with %q", line, body, want)
	}
	if o.hits.Load() != 0 {
		t.Errorf("the denied origin got %d requests, want none", o.hits.Load())
	}
	refused := end()
	if got := RefusedLine(refused); got != "sandbox: network to evil.test:"+itoa(o.port())+" was refused (in deniedDomains)" {
		t.Errorf("sandbox line = %q", got)
	}
}

func TestUnlistedHostAskedOnceThenReached(t *testing.T) {
	o := newOrigin(t, false)
	a := &asker{ans: Answer{Allowed: true, By: "terminal", Scope: "once"}, gate: make(chan struct{})}
	p := startProxy(t, Options{Rules: mustRules(t, []string{"other.test"}, nil), Ask: a}, "new.test")
	end := p.Begin(t.Context(), "c1", "npm install")
	c := client(p, nil)
	var wg sync.WaitGroup
	statuses := make([]int, 5)
	for i := range statuses {
		wg.Add(1)
		go func() { defer wg.Done(); statuses[i], _ = get(t, c, o.hostURL("new.test")) }()
	}
	close(a.gate) // every connection was held until the person answered
	wg.Wait()
	for i, s := range statuses {
		if s != 200 {
			t.Errorf("connection %d: status %d, want 200 once approved", i, s)
		}
	}
	if a.count() != 1 {
		t.Errorf("asked %d times for five connections of one command, want once", a.count())
	}
	q := a.asked[0]
	if q.Host != "new.test" || q.Port != o.port() || q.Command != "npm install" || q.CommandID != "c1" {
		t.Errorf("question = %+v", q)
	}
	end()
	// once is this command's: the next command is asked again.
	end = p.Begin(t.Context(), "c2", "npm install")
	defer end()
	a.gate = nil
	get(t, client(p, nil), o.hostURL("new.test")) // another command's process: a connection of its own
	if a.count() != 2 {
		t.Errorf("asked %d times over two commands with once, want twice", a.count())
	}
}

func TestSessionAnswerHeldForLaterCommands(t *testing.T) {
	o := newOrigin(t, false)
	a := &asker{ans: Answer{Allowed: true, By: "terminal", Scope: "session"}}
	p := startProxy(t, Options{Ask: a}, "new.test")
	for _, id := range []string{"c1", "c2"} {
		end := p.Begin(t.Context(), id, "go mod download")
		if s, _ := get(t, client(p, nil), o.hostURL("new.test")); s != 200 {
			t.Fatalf("%s: status %d", id, s)
		}
		end()
	}
	if a.count() != 1 {
		t.Errorf("asked %d times with a session answer, want once", a.count())
	}
}

func TestUnlistedHostDeclinedOrNoOne(t *testing.T) {
	for _, c := range []struct {
		name   string
		ans    Answer
		reason string
	}{
		{"declined", Answer{By: "terminal", Scope: "once"}, ReasonDeclined},
		{"no one", Answer{NoOne: true, By: "auto"}, ReasonNoOne},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := newOrigin(t, false)
			a := &asker{ans: c.ans}
			p := startProxy(t, Options{Ask: a}, "new.test")
			end := p.Begin(t.Context(), "c1", "curl new.test")
			status, body := get(t, client(p, nil), o.hostURL("new.test"))
			if status != 403 || !strings.HasSuffix(body, "refused: "+c.reason+"\n") {
				t.Fatalf("GET = %d %q, want 403 saying %q", status, body, c.reason)
			}
			get(t, client(p, nil), o.hostURL("new.test")) // a retry is not asked again
			if a.count() != 1 || o.hits.Load() != 0 {
				t.Errorf("asked %d times, origin hit %d times; want once and never", a.count(), o.hits.Load())
			}
			want := "sandbox: network to new.test:" + itoa(o.port()) + " was refused (" + c.reason + ")"
			if got := RefusedLine(end()); got != want {
				t.Errorf("sandbox line = %q, want %q", got, want)
			}
		})
	}
}

func TestNoAskerRefusesUnlisted(t *testing.T) {
	o := newOrigin(t, false)
	p := startProxy(t, Options{}, "new.test")
	status, body := get(t, client(p, nil), o.hostURL("new.test"))
	if status != 403 || !strings.HasSuffix(body, "refused: not in allowedDomains\n") {
		t.Fatalf("GET = %d %q", status, body)
	}
}

func TestNameResolvingToThisMachineRefused(t *testing.T) {
	o := newOrigin(t, false)
	n := names{"rebound.test": true}
	p := startProxy(t, Options{Rules: mustRules(t, []string{"rebound.test"}, nil), LookupIP: n.lookup})
	status, body := get(t, client(p, nil), o.hostURL("rebound.test"))
	if status != http.StatusBadGateway || !strings.Contains(body, "an address of this machine") || o.hits.Load() != 0 {
		t.Fatalf("GET an allowed name on 127.0.0.1 = %d %q (hits %d), want 502 and no request", status, body, o.hits.Load())
	}
	// Asked for as itself, a local address is what the list says.
	p2 := startProxy(t, Options{Rules: mustRules(t, []string{"127.0.0.1"}, nil), LookupIP: n.lookup})
	if status, _ := get(t, client(p2, nil), o.URL); status != 200 {
		t.Fatalf("GET 127.0.0.1 allowed as such = %d, want 200", status)
	}
}

func TestOriginFormRequestRefused(t *testing.T) {
	p := startProxy(t, Options{})
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 400 {
		t.Fatalf("a request not in absolute form: %v %v, want 400", resp, err)
	}
}

func TestSOCKS5(t *testing.T) {
	o := newOrigin(t, false)
	p := startProxy(t, Options{Rules: mustRules(t, []string{"registry.test"}, nil)}, "registry.test", "other.test")
	for _, c := range []struct {
		host string
		want byte
	}{{"registry.test", socksOK}, {"other.test", socksNotAllowed}} {
		conn, code := socksDial(t, p, c.host, o.port())
		if code != c.want {
			t.Fatalf("SOCKS5 CONNECT %s: reply %d, want %d", c.host, code, c.want)
		}
		if code == socksOK {
			io.WriteString(conn, "GET /s HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n")
			b, _ := io.ReadAll(conn)
			if !strings.Contains(string(b), "hello from registry.test/s") {
				t.Errorf("through SOCKS5: %q", b)
			}
		}
		conn.Close()
	}
}

// socksDial opens a SOCKS5 CONNECT to host:port by name.
func socksDial(t *testing.T, p *Proxy, host string, port int) (net.Conn, byte) {
	t.Helper()
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte{5, 1, 0})
	reply := make([]byte, 2)
	if _, err := io.ReadFull(c, reply); err != nil || reply[1] != 0 {
		t.Fatalf("greeting: %v %v", reply, err)
	}
	req := append([]byte{5, 1, 0, 3, byte(len(host))}, host...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	c.Write(req)
	r := make([]byte, 10)
	if _, err := io.ReadFull(c, r); err != nil {
		t.Fatalf("reply: %v", err)
	}
	return c, r[1]
}

// TestKeptAliveRequestsDecidedOnce: requests kept alive to the same host
// are decided, and audited, once per connection.
func TestKeptAliveRequestsDecidedOnce(t *testing.T) {
	o := newOrigin(t, false)
	var mu sync.Mutex
	decided := 0
	p := startProxy(t, Options{Rules: mustRules(t, []string{"registry.test"}, nil),
		OnDecision: func(Decision) { mu.Lock(); decided++; mu.Unlock() }}, "registry.test")
	c := client(p, nil)
	for range 3 {
		if s, _ := get(t, c, o.hostURL("registry.test")); s != 200 {
			t.Fatalf("status %d", s)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if decided != 1 {
		t.Errorf("%d decisions for three requests over one kept-alive connection, want 1", decided)
	}
}

// TestSilentConnectionsHoldNothing: a connection that says nothing is
// closed after the header timeout, not held for ever.
func TestSilentConnectionsHoldNothing(t *testing.T) {
	saved := headerTimeout
	t.Cleanup(func() { headerTimeout = saved }) // after the proxy's own cleanup
	headerTimeout = 100 * time.Millisecond
	p := startProxy(t, Options{})
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatal("the proxy sent something to a connection that said nothing")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the proxy held a silent connection past its header timeout")
	}
}

func TestQuestionsPerCommandBounded(t *testing.T) {
	o := newOrigin(t, false)
	a := &asker{ans: Answer{By: "terminal", Scope: "once"}}
	var hosts []string
	for i := range MaxQuestions + 2 {
		hosts = append(hosts, "h"+itoa(i)+".test")
	}
	p := startProxy(t, Options{Ask: a}, hosts...)
	end := p.Begin(t.Context(), "c1", "for h in …; do curl $h; done")
	for _, h := range hosts {
		get(t, client(p, nil), o.hostURL(h))
	}
	refused := end()
	if a.count() != MaxQuestions {
		t.Errorf("asked %d times for %d hosts, want %d", a.count(), len(hosts), MaxQuestions)
	}
	if last := refused[len(refused)-1]; last.Reason != ReasonTooMany {
		t.Errorf("the last host was refused for %q, want %q", last.Reason, ReasonTooMany)
	}
}
