package netproxy_test

// The HTTP tests of this package go through the front wisp-agent links
// (httpproxy registers it when linked), as the proxy serves in wisp-agent.
import _ "github.com/wisp-sh/wisp/internal/netproxy/httpproxy"
