package netproxy

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"
)

const dialTimeout = 30 * time.Second

// dial connects to host:port, refusing a name that resolves to an address
// of this machine (see AllowLocal).
func (p *Proxy) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	ips, err := p.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: dialTimeout}
	var first error
	for _, ip := range ips {
		if !p.opts.AllowLocal && isLocal(ip) && !localName(host) {
			first = orFirst(first, fmt.Errorf("%s resolves to %s, an address of this machine, which a name in the lists may not lead to", host, ip))
			continue
		}
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(port)))
		if err == nil {
			return c, nil
		}
		first = orFirst(first, err)
	}
	if first == nil {
		first = fmt.Errorf("%s has no address", host)
	}
	return nil, first
}

func (p *Proxy) lookup(ctx context.Context, host string) ([]net.IP, error) {
	if ip := net.ParseIP(host); ip != nil {
		return []net.IP{ip}, nil
	}
	if p.opts.LookupIP != nil {
		return p.opts.LookupIP(ctx, host)
	}
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	ips := make([]net.IP, 0, len(addrs))
	for _, a := range addrs {
		ips = append(ips, a.IP)
	}
	return ips, err
}

func orFirst(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// isLocal is an address that reaches this machine or its link rather than
// the network: loopback, link-local, unspecified.
func isLocal(ip net.IP) bool {
	return ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || ip.IsLinkLocalMulticast()
}

// localName is a host asked for as this machine itself: the person or
// the operator who allowed it knew what it reaches.
func localName(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && isLocal(ip)
}
