package runner_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/runner"
)

// BenchmarkRunTrue measures one run of `true` through runner.Run, confined
// by Landlock and unconfined, in the same run: issue 3 asks for confined at
// most 2x unconfined. go test -run '^$' -bench RunTrue ./runner
func BenchmarkRunTrue(b *testing.B) {
	for _, confined := range []bool{false, true} {
		name := map[bool]string{false: "unconfined", true: "confined"}[confined]
		b.Run(name, func(b *testing.B) {
			f := newFixture(b, confined)
			if f.r.BackendErr != nil {
				b.Skip(f.r.BackendErr)
			}
			b.ResetTimer()
			for b.Loop() {
				res, err := f.r.Run(context.Background(), runner.Request{Line: "true", Origin: runner.Person})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}

// BenchmarkRunTrueRatio runs `true` confined and unconfined through
// runner.Run alternately, so that both see the same machine at the same
// moment, and reports confined/unconfined: the figure issue 3 sets at 2x.
// A shared machine's drift between two sub-benchmarks run one after the
// other moved that ratio by ±0.3 here.
//
//	go test -run '^$' -bench RunTrueRatio -benchtime 300x ./runner
func BenchmarkRunTrueRatio(b *testing.B) {
	confined, unconfined := newFixture(b, true), newFixture(b, false)
	if confined.r.BackendErr != nil {
		b.Skip(confined.r.BackendErr)
	}
	defer confined.r.Close()
	runTrue := func(f *fixture) time.Duration {
		start := time.Now()
		res, err := f.r.Run(context.Background(), runner.Request{Line: "true", Origin: runner.Person})
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("%v %+v", err, res)
		}
		return time.Since(start)
	}
	runTrue(confined) // the served helper's start is once a session, not per command
	var c, u time.Duration
	for b.Loop() {
		u += runTrue(unconfined)
		c += runTrue(confined)
	}
	b.ReportMetric(float64(c)/float64(u), "confined/unconfined")
	b.ReportMetric(float64(c.Microseconds())/float64(b.N), "confined-µs")
	b.ReportMetric(float64(u.Microseconds())/float64(b.N), "unconfined-µs")
}

// BenchmarkBareExec is the floor: exec.Command("/bin/sh", "-c", "true").Run().
func BenchmarkBareExec(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
