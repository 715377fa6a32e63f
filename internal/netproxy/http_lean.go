//go:build wisplean

package netproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
)

// The lean wisp (make's build of wisp, -tags wisplean) links no net/http:
// its initialisers, and crypto/tls's with them, cost every start of `wisp
// run` and `wisp version` half a millisecond. That wisp hands each run that
// wants this proxy (allowedDomains) to wisp-agent, the full build beside
// it, before it starts anything; here the proxy refuses to start at all,
// so that nothing can reach half of it.
var errNoProxy = errors.New("this wisp is the lean build, which has no network proxy; wisp-agent, installed beside it, runs the commands that need one")

// http answers a proxy that New made and Serve serves regardless: it has
// no HTTP to speak, and says so.
func (p *Proxy) http(c net.Conn, _ *bufio.Reader) {
	_, _ = io.WriteString(c, "HTTP/1.1 501 Not Implemented\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
}
