package netproxy

import (
	"bufio"
	"io"
	"net"
	"time"
)

// headerTimeout bounds the wait for a request's line and headers (a
// variable for the test that waits it out).
var headerTimeout = 30 * time.Second

// Splice copies both ways between the client (whose reader may hold bytes
// already read past the request) and the upstream, passing on each side's
// end of writing, until both are done.
func Splice(c net.Conn, br *bufio.Reader, up net.Conn) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if n := br.Buffered(); n > 0 {
			b, _ := br.Peek(n)
			if _, err := up.Write(b); err != nil {
				return
			}
		}
		_, _ = io.Copy(up, c)
		closeWrite(up)
	}()
	_, _ = io.Copy(c, up)
	closeWrite(c)
	<-done
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		return
	}
	c.Close()
}
