package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// benchLine is a typical line a model runs: three simple commands.
const benchLine = "cd src && go test ./... | tee out.txt"

// BenchmarkCheck is the cost of checking benchLine against the default
// list; the bound is 25 µs and 60 allocations.
func BenchmarkCheck(b *testing.B) {
	p, err := New(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if d := p.Check(benchLine); !d.Allowed {
			b.Fatal(d.ModelMessage())
		}
	}
}

// BenchmarkCheckConfigured adds a typical operator's lists.
func BenchmarkCheckConfigured(b *testing.B) {
	p, err := New([]string{`^git push`, `^npm publish`}, []string{`^(cd|go|tee|ls|cat|grep|git)\b`})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if d := p.Check(benchLine); !d.Allowed {
			b.Fatal(d.ModelMessage())
		}
	}
}

// BenchmarkParseBaseline is the shell parser alone on the same line, with a
// new parser each time: the floor Check builds on, for the ratio.
func BenchmarkParseBaseline(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := syntax.NewParser().Parse(strings.NewReader(benchLine), ""); err != nil {
			b.Fatal(err)
		}
	}
}
