package sandbox

import (
	"fmt"
	"strings"
)

// NetworkProxy is the network mode between on and off: commands connect
// to wisp's own proxy (package netproxy) on 127.0.0.1 and to nothing else,
// and the proxy lets through the listed hosts. The sandbox enforces only
// the "nothing else"; the lists are the proxy's, here for the report.
type NetworkProxy struct {
	// Port is the proxy's port on 127.0.0.1; 0 means no proxy.
	Port int
	// Allowed and Denied are commandPolicy.sandbox.allowedDomains and
	// deniedDomains as written; Ask is approval.askForHosts.
	Allowed, Denied []string
	Ask             bool
}

// ThroughProxy returns the spec with the network off but for the proxy
// p: a command may open a TCP connection to p.Port and nothing else.
func (s Spec) ThroughProxy(p NetworkProxy) Spec {
	s.Network, s.Proxy = false, p
	return s
}

// NetworkMode names the network mode: on, off, or proxy.
func (s Spec) NetworkMode() string {
	switch {
	case s.Network:
		return "on"
	case s.Proxy.Port != 0 || len(s.Proxy.Allowed) > 0:
		return "proxy"
	}
	return "off"
}

// ProxyPort is the port a command may connect to with the network off,
// or 0.
func (s Spec) ProxyPort() int {
	if s.Network {
		return 0
	}
	return s.Proxy.Port
}

// networkSummary is the report's phrase for the network.
func (s Status) networkSummary() string {
	switch s.Spec.NetworkMode() {
	case "off":
		return "network off"
	case "proxy":
		return fmt.Sprintf("network only through wisp's proxy on %s (%s)", s.Spec.Proxy.where(), s.Spec.Proxy.lists())
	}
	return ""
}

// where is the proxy's address, or, before wisp starts one (doctor, the
// report), where it will be.
func (p NetworkProxy) where() string {
	if p.Port == 0 {
		return "127.0.0.1, at a port each wisp process chooses"
	}
	return fmt.Sprintf("127.0.0.1:%d", p.Port)
}

func (p NetworkProxy) lists() string {
	parts := []string{"allowedDomains " + listOrNone(p.Allowed)}
	if len(p.Denied) > 0 {
		parts = append(parts, "deniedDomains "+listOrNone(p.Denied))
	}
	if p.Ask {
		parts = append(parts, "other hosts are asked of a person")
	} else {
		parts = append(parts, "other hosts are refused (approval.askForHosts is false)")
	}
	return strings.Join(parts, "; ")
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// networkLines are the full report's lines for the network, and what the
// proxy mode cannot hold here.
func (s Status) networkLines() []string {
	if s.Spec.NetworkMode() != "proxy" {
		return nil
	}
	lines := []string{"network: " + s.networkSummary()[len("network "):]}
	if s.ownNetworkNamespace() {
		lines = append(lines, "network: a network namespace of its own, where only the proxy answers: no other host is reachable, on any port")
	}
	if gap := s.proxyGap(); gap != "" {
		lines = append(lines, "not covered: "+gap)
	}
	return lines
}

// ownNetworkNamespace says whether the helper gives a command a network
// namespace of its own with only the proxy in it: where it has a mount
// namespace, and stays beside the command (not with allowBackground,
// where it execs the shell and nothing would forward).
func (s Status) ownNetworkNamespace() bool {
	return (s.Namespace == NamespaceMount || s.Namespace == NamespaceUser) && !s.Spec.Background
}

// proxyGap is what the proxy mode leaves open on this system: Landlock's
// TCP rule names a port, not an address, so without a network namespace
// of the command's own a host elsewhere listening on the proxy's port
// number is reachable directly.
func (s Status) proxyGap() string {
	switch {
	case s.Landlock != nil && !s.Landlock.TCP && !s.ownNetworkNamespace():
		return "network through the proxy is not enforced: Landlock ABI < 4 has no TCP rules, so a command can connect anywhere"
	case s.ownNetworkNamespace():
		return ""
	case s.Landlock != nil && s.Spec.Proxy.Port == 0:
		return "a host elsewhere listening on the proxy's port number is reachable directly, past the proxy (Landlock's TCP rule names a port, not an address)"
	case s.Landlock != nil:
		return fmt.Sprintf("a host elsewhere listening on port %d, the proxy's port number, is reachable directly, past the proxy (Landlock's TCP rule names a port, not an address)", s.Spec.Proxy.Port)
	}
	return ""
}
