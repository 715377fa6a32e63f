package landlock

import (
	"github.com/landlock-lsm/go-landlock/landlock"
)

// proxyRules let a command with the network off connect to the proxy's
// port over TCP, and to nothing else: binding stays refused, and the
// seccomp filter of the network off (UDP, Multipath TCP, listen, Fast
// Open, other families) stays in place.
func proxyRules(h helperArgs) []landlock.Rule {
	if !h.noNetwork || h.proxyPort == 0 {
		return nil
	}
	return []landlock.Rule{landlock.ConnectTCP(uint16(h.proxyPort))}
}
