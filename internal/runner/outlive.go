package runner

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// reportPipe is the pipe on which the sandbox helper, staying as the
// command's parent, says how many processes the command left running and
// it stopped. A nil reportPipe is a command whose helper does not stay.
type reportPipe struct{ r, w *os.File }

// supervise asks the helper for its report, when spec runs the Linux
// sandbox helper and background processes are not allowed.
func (spec *execSpec) supervise() (*reportPipe, error) {
	argv := landlock.WithReport(spec.argv)
	if len(argv) == len(spec.argv) {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("make the sandbox helper's report pipe: %w", err)
	}
	spec.argv, spec.supervised = argv, true
	return &reportPipe{r: r, w: w}, nil
}

// extraFiles passes the write end as the helper's descriptor 3.
func (p *reportPipe) extraFiles() []*os.File {
	if p == nil {
		return nil
	}
	return []*os.File{p.w}
}

// started closes wisp's copy of the write end: the helper holds the only one.
func (p *reportPipe) started() {
	if p != nil {
		p.w.Close()
	}
}

// read returns what the helper said, once it has exited. No command holds
// the write end, but the read is bounded all the same.
func (p *reportPipe) read() int {
	if p == nil {
		return 0
	}
	_ = p.r.SetReadDeadline(time.Now().Add(time.Second))
	data, _ := io.ReadAll(io.LimitReader(p.r, 64))
	n, _ := landlock.ReadReport(data)
	return n
}

// Close closes both ends.
func (p *reportPipe) Close() {
	if p != nil {
		p.r.Close()
		p.w.Close()
	}
}

// noteStopped says, in the one sandbox: line and in the person's note,
// that the command left processes running: stopped by the sandbox, or
// left to run on where the operator allows it.
func noteStopped(res *Result, er execResult, allowBackground bool) {
	var note string
	switch {
	case er.stopped == 1:
		note = "1 process the command left running was stopped"
	case er.stopped > 1:
		note = fmt.Sprintf("%d processes the command left running were stopped", er.stopped)
	case er.leftRunning && allowBackground:
		note = "the command left processes running, and they run on (commandPolicy.sandbox.allowBackground)"
	default:
		return
	}
	if res.SandboxLine == "" {
		res.SandboxLine = "sandbox: " + note
	} else {
		res.SandboxLine += "; " + note
	}
	if res.PersonNote != "" {
		res.PersonNote += "\n· " + note
	}
}
