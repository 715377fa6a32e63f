package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Banners end with their requests and with wisp-bar, and a killed
// wisp-bar's are closed by the next, for a person's account too: the
// record under wisp's home, the requester's death and the signals as the
// unprivileged user.
func TestBannerLifeAsTheUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	bin := filepath.Join(r.Dir, "wisp-bar")
	data, err := os.ReadFile(barBinary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []string{"TestNextStartClosesWhatAKilledBarLeft", "TestBannerEndsWithItsRequest", "TestQuitAndSignalWithdrawEveryBanner"}
	pattern := "^(" + tests[0]
	for _, name := range tests[1:] {
		pattern += "|" + name
	}
	r.Run(t, pattern+")$", []string{barBinaryEnv + "=" + bin}, tests...)
}
