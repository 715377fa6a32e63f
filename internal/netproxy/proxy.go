package netproxy

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"time"
)

// Question is what the proxy asks about a host in neither list: which
// host and port, and the command whose connection is held meanwhile.
type Question struct {
	Host      string
	Port      int
	Command   string // the command line, as the person would read it
	CommandID string // "" when no command is running (a background process of an earlier one)
}

// HostPort is the host and port as one shows them: registry.example.org:443.
func (q Question) HostPort() string { return net.JoinHostPort(q.Host, strconv.Itoa(q.Port)) }

// Answer is what came of asking.
type Answer struct {
	Allowed bool
	// By is who answered: "terminal", "wisp-bar", "approvals.json", …
	By string
	// Scope is once (this command's connections to the host), session,
	// project or always. The proxy remembers once and session itself; the
	// asker keeps project and always (approvals.json) and answers them
	// without asking.
	Scope string
	// NoOne is true when no person could be asked (no terminal, no
	// out-of-band channel, --yes): the host is refused.
	NoOne bool
}

// Asker asks a person about a host in neither list. It blocks while the
// person decides; ctx ends when the command ends or the proxy closes.
type Asker interface {
	AskHost(ctx context.Context, q Question) (Answer, error)
}

// Decision is one decision about a host, for the audit log
// (network.decision).
type Decision struct {
	Host      string
	Port      int
	Allowed   bool
	By        string // allowedDomains, deniedDomains, the asker's By
	Scope     string // the answer's scope when a person was asked
	Reason    string // why it was refused ("" when allowed)
	CommandID string
	Command   string
}

// Options configure a proxy.
type Options struct {
	Rules Rules
	// Ask asks about a host in neither list; nil refuses every one
	// (approval.askForHosts false).
	Ask Asker
	// OnDecision is told every decision (the audit log); nil: nobody.
	OnDecision func(Decision)
	// LookupIP resolves a host name (net.DefaultResolver when nil); tests
	// name their servers on 127.0.0.1 through it.
	LookupIP func(ctx context.Context, host string) ([]net.IP, error)
	// AllowLocal lets a name that resolves to an address of this machine
	// (loopback, link-local, unspecified, an interface's) be reached. Off,
	// only a host asked for as such (localhost, 127.0.0.1, ::1, the LAN
	// address itself) may be; tests turn it on for their names on
	// 127.0.0.1.
	AllowLocal bool
}

// Proxy is one wisp process's proxy for its confined commands.
type Proxy struct {
	opts Options
	ln   net.Listener

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	current  *command            // the command running now, nil between commands
	commands map[string]*command // by id, while running
	session  map[string]Answer   // host:port -> an allowing answer held for the session
	asking   map[string]*asked   // command id + host:port -> the question being asked
}

// Listen starts a proxy on 127.0.0.1 at a free port.
func Listen(o Options) (*Proxy, error) {
	if httpFront == nil {
		return nil, errNoProxy
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := New(o)
	p.ln = ln
	p.wg.Add(1)
	go func() { defer p.wg.Done(); _ = p.Serve(ln) }()
	return p, nil
}

// New returns a proxy that serves nothing until Serve.
func New(o Options) *Proxy {
	ctx, cancel := context.WithCancel(context.Background())
	return &Proxy{opts: o, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{},
		commands: map[string]*command{}, session: map[string]Answer{}, asking: map[string]*asked{}}
}

// Addr is the address it listens on (127.0.0.1:PORT), or "" before Listen.
func (p *Proxy) Addr() string {
	if p.ln == nil {
		return ""
	}
	return p.ln.Addr().String()
}

// Port is the port it listens on, or 0.
func (p *Proxy) Port() int {
	if p.ln == nil {
		return 0
	}
	return p.ln.Addr().(*net.TCPAddr).Port
}

// Serve accepts connections on ln until it is closed.
func (p *Proxy) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if p.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		if !p.track(c) {
			c.Close()
			return nil
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.untrack(c)
			p.handle(c)
		}()
	}
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
}

// Close stops listening, withdraws every question, closes every
// connection and waits for their goroutines.
func (p *Proxy) Close() error {
	p.cancel()
	var err error
	if p.ln != nil {
		err = p.ln.Close()
	}
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

// handle tells SOCKS5 (its first byte is 5) from HTTP, which never starts
// with that byte.
func (p *Proxy) handle(c net.Conn) {
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(headerTimeout))
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == socksVersion {
		p.socks(c, br)
		return
	}
	if httpFront == nil {
		noHTTP(c)
		return
	}
	httpFront(p, c, br)
}
