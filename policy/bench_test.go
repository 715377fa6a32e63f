//go:build unix

package policy

import (
	"strings"
	"syscall"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// cpuNanos is the CPU time this process has used, every thread included
// (the garbage collector's too). Reported per operation beside the wall
// time, it is the steadier figure on a machine that others load.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// measure runs op b.N times and reports cpu-ns/op.
func measure(b *testing.B, op func()) {
	b.ReportAllocs()
	start := cpuNanos()
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
}

// benchLine is a typical line a model runs: three simple commands.
const benchLine = "cd src && go test ./... | tee out.txt"

// BenchmarkCheck is the cost of checking benchLine against the default
// list; the bound is 25 µs and 60 allocations.
func BenchmarkCheck(b *testing.B) {
	p, err := New(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	measure(b, func() {
		if d := p.Check(benchLine); !d.Allowed {
			b.Fatal(d.ModelMessage())
		}
	})
}

// BenchmarkCheckConfigured adds a typical operator's lists.
func BenchmarkCheckConfigured(b *testing.B) {
	p, err := New([]string{`^git push`, `^npm publish`}, []string{`^(cd|go|tee|ls|cat|grep|git)\b`})
	if err != nil {
		b.Fatal(err)
	}
	measure(b, func() {
		if d := p.Check(benchLine); !d.Allowed {
			b.Fatal(d.ModelMessage())
		}
	})
}

// BenchmarkParseBaseline is the shell parser alone on the same line, with a
// new parser each time: the floor Check builds on, for the ratio.
func BenchmarkParseBaseline(b *testing.B) {
	measure(b, func() {
		if _, err := syntax.NewParser().Parse(strings.NewReader(benchLine), ""); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkParseReusedBaseline is the parser alone with one parser reused,
// as Check's pool does: the fairest floor.
func BenchmarkParseReusedBaseline(b *testing.B) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var r strings.Reader
	measure(b, func() {
		r.Reset(benchLine)
		if _, err := parser.Parse(&r, ""); err != nil {
			b.Fatal(err)
		}
	})
}

// lowArgsLine reaches the checks a low command's words get: a variable
// that names a command (read as a line of its own) and a sed script.
const lowArgsLine = "GIT_PAGER=cat git log --oneline | sed -n 's/^/- /p'"

// BenchmarkCheckLowArgs is the cost of checking lowArgsLine.
func BenchmarkCheckLowArgs(b *testing.B) {
	p, err := New(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	measure(b, func() {
		if d := p.Check(lowArgsLine); !d.Allowed || d.Risk.Level != Low {
			b.Fatalf("%s: %+v", lowArgsLine, d)
		}
	})
}
