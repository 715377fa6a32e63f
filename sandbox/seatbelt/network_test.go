package seatbelt_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

// TestSeatbeltProxyProfilesWellFormed: with the network through the proxy,
// every profile is well formed, denies the network, and allows the proxy's
// address after that denial (the last matching rule wins).
func TestSeatbeltProxyProfilesWellFormed(t *testing.T) {
	for _, unix := range []bool{false, true} {
		spec := sandbox.Spec{Roots: []string{"/r0"}, Protected: []string{"/p0"}, UnixSockets: unix}.
			ThroughProxy(sandbox.NetworkProxy{Port: 41234, Allowed: []string{"github.com"}})
		t.Run(fmt.Sprintf("unixSockets=%v", unix), func(t *testing.T) {
			checkProfile(t, spec)
			p := seatbelt.Profile(spec)
			deny, allow := strings.Index(p, "(deny network*)"), strings.Index(p, `(allow network-outbound (remote ip "localhost:41234"))`)
			if deny < 0 || allow < deny {
				t.Fatalf("the proxy's allow (at %d) does not follow the network's denial (at %d):\n%s", allow, deny, p)
			}
		})
	}
}
