package landlock_test

import (
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// BenchmarkServedTrue runs `sh -c true` through a served helper and plain,
// alternately, and reports served/plain: the cost of confinement once the
// helper's start has left the per-command path.
//
//	go test ./sandbox -run '^$' -bench ServedTrue -benchtime 300x
func BenchmarkServedTrue(b *testing.B) {
	sv, dir := servedFor(b, buildWisp(b))
	var plain, served time.Duration
	for b.Loop() {
		start := time.Now()
		if err := exec.Command(sandbox.Shell, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		plain += time.Since(start)
		start = time.Now()
		servedTrue(b, sv, dir)
		served += time.Since(start)
	}
	b.ReportMetric(float64(served)/float64(plain), "served/plain")
}

func servedTrue(b *testing.B, sv sandbox.Server, dir string) {
	devNull, _ := os.Open(os.DevNull)
	defer devNull.Close()
	pr, pw, _ := os.Pipe()
	defer pr.Close()
	_, wait, err := sv.Start(sandbox.ServeRequest{Argv: sandbox.Plain("true"), Dir: dir,
		Env: os.Environ(), Stdin: devNull, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, pr)
	if ws, err := wait(); err != nil || ws.ExitStatus() != 0 {
		b.Fatalf("served true: %v %v", ws, err)
	}
}
