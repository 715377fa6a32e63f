package refusal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchOutput is 16 KiB of a build and test log, with one refusal in the
// middle when refusal is set.
func benchOutput(refusal bool) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 16<<10; i++ {
		fmt.Fprintf(&b, "=== RUN   TestHandler%03d\n--- PASS: TestHandler%03d (0.%02ds)\n", i, i, i%100)
		fmt.Fprintf(&b, "internal/server/handler_%03d.go:%d:%d: declared and not used: x\n", i, i*7%400, i%60)
		if refusal && i == 60 {
			b.WriteString("touch: cannot touch '/w/out/stamp': Permission denied\n")
		}
	}
	return b.Bytes()[:16<<10]
}

// BenchmarkCheck measures the check on 16 KiB of output, against one
// bytes.Contains over the same bytes and one lstat (RealPath's unit of cost)
// as baselines:
//
//	go test ./sandbox/refusal -run '^$' -bench . -benchmem
func BenchmarkCheck(b *testing.B) {
	quiet, loud := benchOutput(false), benchOutput(true)
	in := func(out []byte, resolve func(string) string) Input {
		return Input{Output: out, Dir: "/w/proj", Home: "/w/home", Roots: []string{"/w/proj", "/tmp"},
			Protected: []string{"/w/proj/.git/hooks"}, Resolve: resolve}
	}
	b.Run("baseline-one-bytes.Contains", func(b *testing.B) {
		b.SetBytes(int64(len(quiet)))
		for b.Loop() {
			_ = bytes.Contains(quiet, quickNeedles[0])
		}
	})
	b.Run("baseline-one-os.Lstat", func(b *testing.B) {
		for b.Loop() {
			_, _ = os.Lstat("/w/out/stamp")
		}
	})
	b.Run("no-errno", func(b *testing.B) {
		benchCheck(b, in(quiet, filepath.Clean), None)
	})
	b.Run("no-errno-network-off", func(b *testing.B) {
		off := in(quiet, filepath.Clean)
		off.NetworkOff = true // the needles of a refused connection with no errno text, too
		benchCheck(b, off, None)
	})
	b.Run("one-errno-lexical", func(b *testing.B) {
		benchCheck(b, in(loud, filepath.Clean), Refused)
	})
	b.Run("one-errno-realpath", func(b *testing.B) {
		benchCheck(b, in(loud, nil), Refused)
	})
}

func benchCheck(b *testing.B, in Input, want Verdict) {
	b.SetBytes(int64(len(in.Output)))
	if r := Check(in); r.Verdict != want {
		b.Fatalf("got %q, want %q", r.Verdict, want)
	}
	for b.Loop() {
		Check(in)
	}
}
