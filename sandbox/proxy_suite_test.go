package sandbox_test

import (
	"github.com/wisp-sh/wisp/internal/netproxy/netproxytest"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// The suite's cases that need wisp's real proxy get it from here: the
// sandbox packages may not link net/http, but their tests may.
func init() { sandboxtest.StartProxy = netproxytest.Start }
