package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
)

// executeServed is execute through the served sandbox helper: the same
// shell line (servedArgv), the same pipe, the
// same group handling; the helper's child leads a group whose id is its
// pid. An error means the command was not started.
func executeServed(ctx context.Context, spec execSpec) (execResult, error) {
	stdin, closeStdin, err := openStdinFile(spec.stdin)
	if err != nil {
		return execResult{}, fmt.Errorf("%w: %w", sandbox.ErrNotStarted, err)
	}
	defer closeStdin()
	pr, pw, err := os.Pipe()
	if err != nil {
		return execResult{}, fmt.Errorf("%w: make the output pipe: %w", sandbox.ErrNotStarted, err)
	}
	start := time.Now()
	var stopped int
	pid, wait, err := spec.server.Start(sandbox.ServeRequest{
		Argv: spec.servedArgv, Dir: spec.dir, Env: envOf(spec.env),
		Stdin: stdin, Stdout: pw, Stderr: pw, Stopped: &stopped,
	})
	pw.Close()
	if err != nil {
		pr.Close()
		return execResult{}, err
	}
	copied := make(chan struct{})
	go func() { io.Copy(spec.out, pr); close(copied) }()
	done := make(chan int, 1)
	go func() { done <- servedCode(wait()) }()
	res := waitLeader(ctx, pid, done, spec)
	drain(pr, copied, pid)
	res.stopped = stopped // set before done was
	res.duration = time.Since(start)
	return res, nil
}

// openStdinFile is openStdin for a process started elsewhere, which needs
// a file: only nil (/dev/null) and files qualify; the rest is refused, and
// the caller falls back to starting the process itself.
func openStdinFile(r io.Reader) (*os.File, func(), error) {
	if f, ok := r.(*os.File); ok {
		return f, func() {}, nil
	}
	if r != nil {
		return nil, nil, fmt.Errorf("stdin is not a file")
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s for stdin: %w", os.DevNull, err)
	}
	return f, func() { f.Close() }, nil
}

func envOf(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// servedCode is exitCodeOf for a wait status from the served helper.
func servedCode(ws syscall.WaitStatus, err error) int {
	switch {
	case err != nil:
		return -1
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
