package person_test

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/netproxy/netproxytest"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

func TestMain(m *testing.M) {
	sandboxtest.StartProxy = netproxytest.Start // the real proxy, which the sandbox packages do not link
	sandboxtest.Main(m)
}
