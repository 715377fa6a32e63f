package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// What checkpoints add to a turn on a project of 20,000 files of which
// each turn changes 10: the checkpoint before the turn and the one after,
// against the same scripted turn with checkpoints off, in the same run.
// The scripted model answers at once, so the ratio is against the agent's
// own cost of a turn; a real model's turn takes seconds.
//
//	go test -run '^$' -bench TurnCheckpointed20k -benchtime 50x ./internal/agent/
func BenchmarkTurnCheckpointed20k(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			w := newWorld(b, agenttest.SandboxOff)
			dir := w.tb.Runner.Dir
			files := gen20k(b, dir)
			srv := modeltest.NewServer(b)
			a, _ := w.agent(b, srv)
			if on {
				a.o.Checkpoints = checkpointsFor(b, w)
				a.o.Checkpoints.Store.Take(a.o.Checkpoints.Roots, "first") // the first records every file
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				for j := range 10 {
					os.WriteFile(files[(i*7919+j*104729)%len(files)], fmt.Appendf(nil, "package p // %d %d\n", i, j), 0o644)
				}
				srv.Append(benchTurn)
				a.history = a.history[:0]
				b.StartTimer()
				if err := a.Send(context.Background(), "go"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func gen20k(b testing.TB, dir string) []string {
	var files []string
	for d := range 200 {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			p := filepath.Join(sub, fmt.Sprintf("f%03d.go", f))
			if err := os.WriteFile(p, fmt.Appendf(nil, "package p\n\n// file %d of %d\n", f, d), 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, p)
		}
	}
	// A project's files are older than the turn: a file written in the
	// second a checkpoint reads it is read again by the next (git's racy
	// timestamp rule), which a freshly made tree would pay every time.
	old := time.Now().Add(-time.Hour)
	for _, p := range files {
		os.Chtimes(p, old, old)
	}
	return files
}
