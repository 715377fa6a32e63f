package netproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"time"
)

// HTTPFront serves one client connection that speaks HTTP to the proxy
// (CONNECT, or http:// requests in full): br holds what was read of it.
// internal/netproxy/httpproxy registers the one wisp has.
type HTTPFront func(p *Proxy, c net.Conn, br *bufio.Reader)

// httpFront is the registered front: nil in the lean wisp, which links no
// net/http (its initialisers, and crypto/tls's with them, cost every start
// of `wisp run` and `wisp version` half a millisecond). That wisp hands
// each run that wants this proxy (allowedDomains) to wisp-agent before it
// starts anything; here the proxy refuses to start at all without a front,
// so that nothing can reach half of it.
var httpFront HTTPFront

// RegisterHTTP makes front the proxy's HTTP front. httpproxy calls it from
// its init: registration only, as the sandbox's backends register.
func RegisterHTTP(front HTTPFront) { httpFront = front }

var errNoProxy = errors.New("this wisp is the lean build, which has no network proxy; wisp-agent, installed beside it, runs the commands that need one")

// noHTTP answers a proxy that New made and Serve serves regardless, with
// no front registered: it has no HTTP to speak, and says so.
func noHTTP(c net.Conn) {
	_, _ = io.WriteString(c, "HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
}

// Allow decides host:port for the command being run (the rules, then the
// question): the normalised host, and why not when it is refused.
func (p *Proxy) Allow(host string, port int) (string, string) { return p.allow(host, port) }

// Dial connects to host:port as the proxy does, refusing this machine's
// own addresses unless AllowLocal; it ends when the proxy closes.
func (p *Proxy) Dial(host string, port int) (net.Conn, error) { return p.dial(p.ctx, host, port) }

// HeaderTimeout is how long a client has to say what it wants.
func (p *Proxy) HeaderTimeout() time.Duration { return headerTimeout }
