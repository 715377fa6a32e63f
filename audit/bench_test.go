package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// BenchmarkLog is the cost of one event: encode, the rotation check
// (stat + fstat) and one write(2). Compare with BenchmarkAppendBaseline,
// a prebuilt line written to an O_APPEND file, measured in the same run.
func BenchmarkLog(b *testing.B) {
	l := New(benchHome(b), "ce87576a", 4242, nil)
	defer l.Close()
	e := sampleEvents()[9]
	for b.Loop() {
		if err := l.Log(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendBaseline(b *testing.B) {
	l := New(benchHome(b), "ce87576a", 4242, nil)
	line, _ := l.encode(sampleEvents()[9])
	f, err := os.OpenFile(filepath.Join(b.TempDir(), "baseline.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for b.Loop() {
		if _, err := f.Write(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead reads a full 10 MiB log: "all" decodes every line (plain
// `wisp logs`), "filtered" matches none by time (`--since` passing over
// the old lines). bytes/s is the figure.
func BenchmarkRead(b *testing.B) {
	home := benchHome(b)
	l := New(home, "ce87576a", 4242, nil)
	l.rotateAt = 1 << 40
	var size int64
	for size < RotateBytes {
		for _, e := range sampleEvents() {
			l.Log(e)
		}
		info, _ := os.Stat(home.AuditFile())
		size = info.Size()
	}
	l.Close()
	for _, bc := range []struct {
		name string
		f    Filter
	}{{"all", Filter{}}, {"filtered", Filter{Since: time.Now().Add(time.Hour)}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				if err := Read(home, bc.f, func(Record) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchHome(b *testing.B) config.Home { return config.Home{Dir: filepath.Join(b.TempDir(), "home")} }
