package seatbelt

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/sandbox"
)

// writeProxy, after the network off, lets a command connect to wisp's
// proxy and to nothing else: Seatbelt matches the remote address, so,
// unlike Landlock's port rule, no host elsewhere on the proxy's port
// number is reachable. The port is a number wisp chose, not input.
func writeProxy(b *strings.Builder, spec sandbox.Spec) {
	port := spec.ProxyPort()
	if port == 0 {
		return
	}
	b.WriteString("\n; Network through wisp's proxy only (allowedDomains): the proxy on this machine.\n")
	fmt.Fprintf(b, "(allow network-outbound (remote ip \"localhost:%d\"))\n", port)
}
