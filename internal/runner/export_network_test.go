package runner

import (
	"context"
	"net"

	"github.com/wisp-sh/wisp/internal/netproxy"
	_ "github.com/wisp-sh/wisp/internal/netproxy/httpproxy" // the proxy whole, as wisp-agent links it
)

// StartNetworkResolving is StartNetwork with the proxy's names resolved
// by lookup, and names on this machine allowed: tests name their servers
// on 127.0.0.1 and never reach past it.
func (r *Runner) StartNetworkResolving(lookup func(context.Context, string) ([]net.IP, error)) error {
	return r.startNetwork(func(o *netproxy.Options) { o.LookupIP, o.AllowLocal = lookup, true })
}
