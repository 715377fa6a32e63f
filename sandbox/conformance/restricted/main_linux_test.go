package restricted_test

import (
	"testing"

	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

func TestMain(m *testing.M) { sandboxtest.Main(m) }
