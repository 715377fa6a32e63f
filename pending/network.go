package pending

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// KindNetwork asks whether a confined command may reach one host through
// wisp's network proxy (commandPolicy.sandbox.allowedDomains): its command
// is NetworkCommand and HOST:PORT, its first reason NetworkAskedBy and
// the command line that opened the connection. It carries no field a
// version 1 reader does not know; a reader that does not know the kind
// refuses the request whole, as it refuses any kind it does not know.
const KindNetwork = "network"

// NetworkCommand begins a network request's command, before HOST:PORT.
const NetworkCommand = "network to "

// NetworkAskedBy begins a network request's first reason, before the
// command line whose connection waits.
const NetworkAskedBy = "asked by: "

// NetworkRequest is the command and first reason of a network request for
// host and port, asked by line.
func NetworkRequest(host string, port int, line string) (command string, reasons []string) {
	return NetworkCommand + net.JoinHostPort(host, strconv.Itoa(port)), []string{NetworkAskedBy + line}
}

// NetworkTarget reads a network request: the host, the port and the
// command line that asked. ok is false for a request of another kind or
// one that breaks the kind's rules.
func NetworkTarget(r Request) (host string, port int, askedBy string, ok bool) {
	if r.Kind != KindNetwork || checkNetwork(r) != nil {
		return "", 0, "", false
	}
	host, port, _ = splitNetworkTarget(strings.TrimPrefix(r.Command, NetworkCommand))
	return host, port, strings.TrimPrefix(r.Reasons[0], NetworkAskedBy), true
}

// checkNetwork: a network request names one host (a lowercase name or an
// address, nothing a terminal would act on) and a port from 1 to 65535,
// says first which command asked, and runs nothing outside the sandbox.
func checkNetwork(r Request) error {
	target, ok := strings.CutPrefix(r.Command, NetworkCommand)
	if !ok {
		return fmt.Errorf("a network request's command must be %q and HOST:PORT", NetworkCommand)
	}
	if _, _, err := splitNetworkTarget(target); err != nil {
		return fmt.Errorf("a network request's target: %w", err)
	}
	switch {
	case r.OutsideSandbox:
		return fmt.Errorf("a network request does not run outside the sandbox")
	case len(r.Reasons) == 0 || !strings.HasPrefix(r.Reasons[0], NetworkAskedBy) || r.Reasons[0] == NetworkAskedBy:
		return fmt.Errorf("a network request's first reason must be %q and the command line that asked", NetworkAskedBy)
	}
	return nil
}

func splitNetworkTarget(s string) (string, int, error) {
	host, ps, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, fmt.Errorf("%q is not HOST:PORT", s)
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 1 || port > 65535 || strconv.Itoa(port) != ps {
		return "", 0, fmt.Errorf("port %q is not a number from 1 to 65535", ps)
	}
	if net.ParseIP(host) == nil && !isHostName(host) {
		return "", 0, fmt.Errorf("%q is not a lowercase host name", host)
	}
	return host, port, nil
}

// isHostName: lowercase letters, digits, hyphens, underscores and dots,
// no empty label; what the proxy's NormalizeHost gives.
func isHostName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
