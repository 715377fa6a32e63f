//go:build unix

package pending

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Our machines run tests as root; people do not. File owners and modes
// are where root changes outcomes, so the cross-process tests run again as
// an unprivileged user (the test binary re-run under that uid).
func TestAsAnUnprivilegedUser(t *testing.T) {
	testenv.NewRerun(t).Run(t, "^(TestHostile|TestAnAnswer|TestAReplayed|TestAKilled|TestInterrupt|TestListSkips|TestFileRefuses|TestFifty)", nil)
}
