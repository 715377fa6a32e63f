package netproxy

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"time"
)

// SOCKS5 (RFC 1928), CONNECT without authentication only: what curl,
// git and ssh's ProxyCommand send through ALL_PROXY=socks5h://.
const (
	socksVersion   = 5
	socksNoAuth    = 0
	socksNoMethods = 0xff
	socksConnect   = 1

	socksOK          = 0
	socksFailure     = 1
	socksNotAllowed  = 2
	socksUnreachable = 4
	socksBadCommand  = 7
	socksBadAddress  = 8
)

func (p *Proxy) socks(c net.Conn, br *bufio.Reader) {
	_ = c.SetReadDeadline(time.Now().Add(headerTimeout))
	if !socksGreet(c, br) {
		return
	}
	host, port, code := socksRequest(br)
	_ = c.SetReadDeadline(time.Time{})
	if code != socksOK {
		socksReply(c, code)
		return
	}
	host, why := p.allow(host, port)
	if why != "" {
		socksReply(c, socksNotAllowed)
		return
	}
	upc, err := p.dial(p.ctx, host, port)
	if err != nil {
		socksReply(c, socksUnreachable)
		return
	}
	defer upc.Close()
	if !socksReply(c, socksOK) {
		return
	}
	Splice(c, br, upc)
}

// socksGreet takes the client's methods and chooses no authentication.
func socksGreet(c net.Conn, br *bufio.Reader) bool {
	head := make([]byte, 2)
	if _, err := io.ReadFull(br, head); err != nil {
		return false
	}
	methods := make([]byte, head[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return false
	}
	for _, m := range methods {
		if m == socksNoAuth {
			_, err := c.Write([]byte{socksVersion, socksNoAuth})
			return err == nil
		}
	}
	_, _ = c.Write([]byte{socksVersion, socksNoMethods})
	return false
}

// socksRequest reads the CONNECT request: the host as a name, an IPv4 or
// an IPv6 address, and the port.
func socksRequest(br *bufio.Reader) (string, int, byte) {
	head := make([]byte, 4)
	if _, err := io.ReadFull(br, head); err != nil || head[0] != socksVersion {
		return "", 0, socksFailure
	}
	if head[1] != socksConnect {
		return "", 0, socksBadCommand
	}
	var host string
	switch head[3] {
	case 1, 4:
		ip := make([]byte, map[byte]int{1: 4, 4: 16}[head[3]])
		if _, err := io.ReadFull(br, ip); err != nil {
			return "", 0, socksFailure
		}
		host = net.IP(ip).String()
	case 3:
		n, err := br.ReadByte()
		name := make([]byte, n)
		if _, err2 := io.ReadFull(br, name); err != nil || err2 != nil {
			return "", 0, socksFailure
		}
		host = string(name)
	default:
		return "", 0, socksBadAddress
	}
	pb := make([]byte, 2)
	if _, err := io.ReadFull(br, pb); err != nil {
		return "", 0, socksFailure
	}
	port := int(binary.BigEndian.Uint16(pb))
	if port == 0 {
		return "", 0, socksBadAddress
	}
	return host, port, socksOK
}

func socksReply(c net.Conn, code byte) bool {
	_, err := c.Write([]byte{socksVersion, code, 0, 1, 0, 0, 0, 0, 0, 0})
	return err == nil
}
