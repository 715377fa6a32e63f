package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/runner"
)

// BenchmarkRunTrueSecrets is issue 12's figure: `true` confined through
// runner.Run with the default denyRead list against none, alternately so
// that both see the same machine. The served helper builds its rules once
// a session; a per-command helper (oneshot: `wisp run`, a terminal
// command) lists the folders on the way to each secret at every command.
//
//	go test -run '^$' -bench RunTrueSecrets -benchtime 300x ./runner
func BenchmarkRunTrueSecrets(b *testing.B) {
	for _, oneShot := range []bool{false, true} {
		name := map[bool]string{false: "served", true: "oneshot"}[oneShot]
		b.Run(name, func(b *testing.B) {
			secrets, none := newFixture(b, true), newFixture(b, true)
			if secrets.r.BackendErr != nil {
				b.Skip(secrets.r.BackendErr)
			}
			defer secrets.r.Close()
			defer none.r.Close()
			none.r.Spec.DenyRead, none.r.Spec.AllowRead = nil, nil
			secrets.r.OneShot, none.r.OneShot = oneShot, oneShot
			if len(secrets.r.Spec.DenyRead) == 0 {
				b.Fatal("the fixture's spec has no default denyRead")
			}
			runTrue := func(f *fixture) time.Duration {
				start := time.Now()
				res, err := f.r.Run(context.Background(), runner.Request{Line: "true", Origin: runner.Person})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%v %+v", err, res)
				}
				return time.Since(start)
			}
			runTrue(secrets) // a served helper starts once a session
			runTrue(none)
			var s, n time.Duration
			for b.Loop() {
				n += runTrue(none)
				s += runTrue(secrets)
			}
			b.ReportMetric(float64(s)/float64(n), "denyRead/none")
			b.ReportMetric(float64(s.Microseconds())/float64(b.N), "denyRead-µs")
			b.ReportMetric(float64(n.Microseconds())/float64(b.N), "none-µs")
		})
	}
}
