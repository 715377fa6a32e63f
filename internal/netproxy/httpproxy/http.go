// Package httpproxy is the HTTP front of wisp's network proxy
// (internal/netproxy): CONNECT tunnels and plain http:// requests, each
// host decided by the proxy's rules and questions. It is a package of its
// own because it links net/http, whose initialisers (and crypto/tls's with
// them) cost every start of the binary that links it half a millisecond:
// wisp-agent links it, the lean wisp does not, and hands a run that wants
// the proxy to wisp-agent (docs/architecture.md, layer 2).
package httpproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/netproxy"
)

func init() { netproxy.RegisterHTTP(serve) }

// http serves one client connection of HTTP requests: CONNECT tunnels,
// and plain-HTTP requests in absolute form, forwarded one after another
// over the same upstream connection while they go to the same host.
func serve(p *netproxy.Proxy, c net.Conn, br *bufio.Reader) {
	var up *upstream
	defer func() { up.close() }()
	for {
		// A client gets a while to say what it wants, and no longer: a
		// command that opens connections and says nothing holds nothing.
		_ = c.SetReadDeadline(time.Now().Add(p.HeaderTimeout()))
		req, err := http.ReadRequest(br)
		_ = c.SetReadDeadline(time.Time{})
		if err != nil {
			if err != io.EOF {
				writeStatus(c, http.StatusBadRequest, "wisp: the proxy could not read the request: "+oneLine(err.Error())+"\n")
			}
			return
		}
		if req.Method == http.MethodConnect {
			connect(p, c, br, req)
			return
		}
		var keep bool
		up, keep = forward(p, c, req, up)
		if !keep {
			return
		}
	}
}

// connect opens a tunnel to the host CONNECT names, once it is allowed.
func connect(p *netproxy.Proxy, c net.Conn, br *bufio.Reader, req *http.Request) {
	host, port, err := splitTarget(req.RequestURI, 0)
	if err != nil {
		writeStatus(c, http.StatusBadRequest, "wisp: CONNECT needs HOST:PORT: "+err.Error()+"\n")
		return
	}
	host, why := p.Allow(host, port)
	if why != "" {
		writeStatus(c, http.StatusForbidden, netproxy.RefusedBody(host, port, why))
		return
	}
	upc, err := p.Dial(host, port)
	if err != nil {
		writeStatus(c, http.StatusBadGateway, fmt.Sprintf("wisp: network to %s failed: %s\n", net.JoinHostPort(host, strconv.Itoa(port)), oneLine(err.Error())))
		return
	}
	defer upc.Close()
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	netproxy.Splice(c, br, upc)
}

// upstream is the connection a client's plain-HTTP requests go over.
type upstream struct {
	hostport string
	conn     net.Conn
	br       *bufio.Reader
}

func (u *upstream) close() {
	if u != nil {
		u.conn.Close()
	}
}

// forward sends one plain-HTTP request on, reusing up when it goes to the
// same host, and copies the response back. keep says whether the client
// connection can carry another request.
func forward(p *netproxy.Proxy, c net.Conn, req *http.Request, up *upstream) (*upstream, bool) {
	defer req.Body.Close()
	if !req.URL.IsAbs() || req.URL.Scheme != "http" {
		up.close()
		writeStatus(c, http.StatusBadRequest, "wisp: this is wisp's network proxy: send it http:// URLs in full, or CONNECT HOST:PORT for anything else\n")
		return nil, false
	}
	host, port, err := splitTarget(req.URL.Host, 80)
	if err != nil {
		up.close()
		writeStatus(c, http.StatusBadRequest, "wisp: "+err.Error()+"\n")
		return nil, false
	}
	host, why := allowFor(p, up, host, port)
	if why != "" {
		up.close()
		writeStatus(c, http.StatusForbidden, netproxy.RefusedBody(host, port, why))
		return nil, false
	}
	up, err = upstreamFor(p, up, host, port)
	if err != nil {
		writeStatus(c, http.StatusBadGateway, fmt.Sprintf("wisp: network to %s failed: %s\n", net.JoinHostPort(host, strconv.Itoa(port)), oneLine(err.Error())))
		return nil, false
	}
	return up, roundTrip(c, req, up)
}

// allowFor is allow for a plain-HTTP request, but once per upstream
// connection: a request kept alive to the host already let through is
// not decided, nor audited, again.
func allowFor(p *netproxy.Proxy, up *upstream, host string, port int) (string, string) {
	if h, err := netproxy.NormalizeHost(host); err == nil && up != nil && up.hostport == net.JoinHostPort(h, strconv.Itoa(port)) {
		return h, ""
	}
	return p.Allow(host, port)
}

func upstreamFor(p *netproxy.Proxy, up *upstream, host string, port int) (*upstream, error) {
	hp := net.JoinHostPort(host, strconv.Itoa(port))
	if up != nil && up.hostport == hp {
		return up, nil
	}
	up.close()
	conn, err := p.Dial(host, port)
	if err != nil {
		return nil, err
	}
	return &upstream{hostport: hp, conn: conn, br: bufio.NewReader(conn)}, nil
}

// roundTrip writes req in origin form upstream, without the headers meant
// for the proxy, and copies the response back.
func roundTrip(c net.Conn, req *http.Request, up *upstream) bool {
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Proxy-Authenticate"} {
		req.Header.Del(h)
	}
	if err := req.Write(up.conn); err != nil {
		writeStatus(c, http.StatusBadGateway, "wisp: the request could not be sent on: "+oneLine(err.Error())+"\n")
		return false
	}
	resp, err := http.ReadResponse(up.br, req)
	if err != nil {
		writeStatus(c, http.StatusBadGateway, "wisp: the server's answer could not be read: "+oneLine(err.Error())+"\n")
		return false
	}
	defer resp.Body.Close()
	if err := resp.Write(c); err != nil {
		return false
	}
	return !resp.Close && !req.Close
}

// splitTarget reads HOST:PORT (or HOST, with port def when def is not 0).
func splitTarget(s string, def int) (string, int, error) {
	host, ps, err := net.SplitHostPort(s)
	if err != nil {
		if def == 0 || strings.Contains(strings.Trim(s, "[]"), "]") {
			return "", 0, fmt.Errorf("%q is not HOST:PORT", s)
		}
		return strings.Trim(s, "[]"), def, nil
	}
	port, err := netproxy.ParsePort(ps)
	return host, port, err
}

// writeStatus answers with status and a one-line body, and closes.
func writeStatus(c net.Conn, status int, body string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}

func oneLine(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ") }
