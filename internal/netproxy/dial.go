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
		if err := p.refuseThisMachine(host, ip); err != nil {
			first = orFirst(first, err)
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

// refuseThisMachine says why host may not lead to ip: ip reaches this
// machine (AllowLocal off), and host is a name. The machine asked for as
// itself (localhost, 127.0.0.1, its LAN address) is what the person or the
// operator who allowed it named. It runs just before each connection,
// against the addresses the interfaces have then, so an address that came
// up after the proxy started counts too.
func (p *Proxy) refuseThisMachine(host string, ip net.IP) error {
	if p.opts.AllowLocal || host == "localhost" || net.ParseIP(host) != nil {
		return nil
	}
	local, err := isLocal(ip)
	switch {
	case err != nil:
		return fmt.Errorf("%s resolves to %s, and this machine's own addresses could not be listed to tell whether it is one of them: %w", host, ip, err)
	case local:
		return fmt.Errorf("%s resolves to %s, an address of this machine, which a name in the lists may not lead to", host, ip)
	}
	return nil
}

// isLocal reports whether ip reaches this machine or its link rather than
// the network: loopback, link-local, unspecified, or an address of one of
// this machine's interfaces (its LAN address, where a service bound to
// 0.0.0.0 or :: answers), in any form (an IPv4 address mapped into IPv6
// is the same address).
func isLocal(ip net.IP) (bool, error) {
	if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || ip.IsLinkLocalMulticast() {
		return true, nil
	}
	own, err := net.InterfaceAddrs()
	if err != nil {
		return false, err
	}
	for _, a := range own {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true, nil
		}
	}
	return false, nil
}
