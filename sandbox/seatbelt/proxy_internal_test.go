package seatbelt

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

func TestSeatbeltProxyAllowsOnlyTheProxy(t *testing.T) {
	var b strings.Builder
	writeProxy(&b, sandbox.Spec{}.ThroughProxy(sandbox.NetworkProxy{Port: 3128}))
	if !strings.Contains(b.String(), `(allow network-outbound (remote ip "localhost:3128"))`) {
		t.Fatalf("profile text %q does not allow the proxy", b.String())
	}
	b.Reset()
	writeProxy(&b, sandbox.Spec{Network: true, Proxy: sandbox.NetworkProxy{Port: 3128}})
	if b.Len() != 0 {
		t.Fatalf("with the network on, the proxy adds %q", b.String())
	}
}
