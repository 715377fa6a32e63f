package netproxy

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Pattern is one entry of allowedDomains or deniedDomains: an exact host
// (`github.com`), a host's subdomains (`*.npmjs.org`: registry.npmjs.org,
// a.b.npmjs.org, never npmjs.org itself), or an IP address, each
// optionally with `:port`. Without a port it matches every port.
type Pattern struct {
	Host string // lowercase, without the `*.` and without a final dot
	Sub  bool   // `*.`: subdomains of Host, not Host itself
	Port int    // 0: any port
}

// ParsePattern reads one list entry. It refuses what could not be a host
// (a scheme, a path, a wildcard anywhere but in front), so that a typo
// never reads as a pattern that matches nothing or everything.
func ParsePattern(s string) (Pattern, error) {
	in := strings.TrimSpace(s)
	host, port, err := splitPatternPort(in)
	if err != nil {
		return Pattern{}, fmt.Errorf("host pattern %q: %w", s, err)
	}
	p := Pattern{Port: port}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		p.Sub, host = true, rest
	}
	host, err = NormalizeHost(host)
	if err != nil {
		return Pattern{}, fmt.Errorf("host pattern %q: %w", s, err)
	}
	if p.Sub && net.ParseIP(host) != nil {
		return Pattern{}, fmt.Errorf("host pattern %q: *. takes a domain, not an address", s)
	}
	if p.Sub && !strings.Contains(host, ".") {
		return Pattern{}, fmt.Errorf("host pattern %q: *. needs a domain with a dot (*.example.org), or it would match a whole top-level domain", s)
	}
	p.Host = host
	return p, nil
}

// splitPatternPort takes an optional :port off a pattern; an IPv6 address
// with a port is written in brackets ([::1]:8080).
func splitPatternPort(s string) (string, int, error) {
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ ") {
		return "", 0, fmt.Errorf("write a host name, optionally with :port, not a URL")
	}
	if strings.HasPrefix(s, "[") || strings.Count(s, ":") == 1 {
		host, ps, err := net.SplitHostPort(s)
		if err != nil {
			if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
				return strings.Trim(s, "[]"), 0, nil
			}
			return "", 0, err
		}
		port, err := ParsePort(ps)
		return host, port, err
	}
	return s, 0, nil
}

// ParsePort reads a port number, 1 to 65535.
func ParsePort(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q is not a number from 1 to 65535", s)
	}
	return n, nil
}

// NormalizeHost lowercases a host name and drops a final dot, so that
// GitHub.com. and github.com are one host; it refuses a name with
// characters no host name has, and an empty one. An IP address is kept in
// its canonical form (::1, not 0:0::1).
func NormalizeHost(h string) (string, error) {
	h = strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String(), nil
	}
	if h == "" || len(h) > 253 {
		return "", fmt.Errorf("not a host name")
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return "", fmt.Errorf("%q is not a host name (an empty or overlong label)", h)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", fmt.Errorf("%q is not a host name (%q)", h, c)
			}
		}
	}
	return h, nil
}

// Matches says whether the pattern covers host (normalized) on port.
func (p Pattern) Matches(host string, port int) bool {
	if p.Port != 0 && p.Port != port {
		return false
	}
	if p.Sub {
		return strings.HasSuffix(host, "."+p.Host)
	}
	return host == p.Host
}

func (p Pattern) String() string {
	h := p.Host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if p.Sub {
		h = "*." + h
	}
	if p.Port != 0 {
		h += ":" + strconv.Itoa(p.Port)
	}
	return h
}

// Verdict is what the lists say of one host and port.
type Verdict int

const (
	// Unlisted: in neither list; a person is asked, where one can be.
	Unlisted Verdict = iota
	// Allowed: in allowedDomains and not in deniedDomains.
	Allowed
	// Denied: in deniedDomains, whatever allowedDomains says.
	Denied
)

// Rules are the operator's two lists.
type Rules struct {
	Allowed, Denied []Pattern
}

// ParseRules reads allowedDomains and deniedDomains.
func ParseRules(allowed, denied []string) (Rules, error) {
	var r Rules
	for _, list := range []struct {
		name string
		in   []string
		out  *[]Pattern
	}{{"allowedDomains", allowed, &r.Allowed}, {"deniedDomains", denied, &r.Denied}} {
		for _, s := range list.in {
			p, err := ParsePattern(s)
			if err != nil {
				return Rules{}, fmt.Errorf("commandPolicy.sandbox.%s: %w", list.name, err)
			}
			*list.out = append(*list.out, p)
		}
	}
	return r, nil
}

// Match says what the lists make of host on port. deniedDomains wins.
func (r Rules) Match(host string, port int) Verdict {
	host, err := NormalizeHost(host)
	if err != nil {
		return Denied
	}
	for _, p := range r.Denied {
		if p.Matches(host, port) {
			return Denied
		}
	}
	for _, p := range r.Allowed {
		if p.Matches(host, port) {
			return Allowed
		}
	}
	return Unlisted
}
