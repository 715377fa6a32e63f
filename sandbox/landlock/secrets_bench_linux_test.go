package landlock

import (
	"os"
	"testing"

	"github.com/landlock-lsm/go-landlock/landlock"
	"github.com/wisp-sh/wisp/sandbox"
)

// BenchmarkReadRules is what the helper spends building the read rules at
// every command: /dev alone, against /dev and the default denyRead over
// the real home (each folder on the way to a secret listed once).
//
//	go test -run '^$' -bench ReadRules ./sandbox/landlock
func BenchmarkReadRules(b *testing.B) {
	home, err := os.UserHomeDir()
	if err != nil {
		b.Skip(err)
	}
	// NewSpec resolves the default denyRead as wisp does, each entry as
	// written and as its real path.
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: b.TempDir(), WispHome: b.TempDir(), UserHome: home, GOOS: "linux"})
	if err != nil {
		b.Fatal(err)
	}
	forms := spec.DenyRead
	for _, tc := range []struct {
		name   string
		hidden []string
	}{{"none", []string{"/dev"}}, {"denyRead", append([]string{"/dev"}, forms...)}} {
		b.Run(tc.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				rules, err := readRules(landlock.V7.HandledAccessFS, tc.hidden)
				if err != nil {
					b.Fatal(err)
				}
				n = len(rules)
			}
			b.ReportMetric(float64(n), "rules")
		})
	}
}
