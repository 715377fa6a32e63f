package sandboxtest

import (
	"io"
	"os"
	"syscall"

	"github.com/wisp-sh/wisp/sandbox"
)

// servedRun runs line through the backend's served helper, started for
// spec alone, and returns its output and shell-style status.
func (s *suite) servedRun(spec sandbox.Spec, line string) (string, int) {
	s.t.Helper()
	return s.servedRunEnv(spec, line, os.Environ())
}

// servedRunEnv is servedRun with env as the command's environment.
func (s *suite) servedRunEnv(spec sandbox.Spec, line string, env []string) (string, int) {
	s.t.Helper()
	serving, ok := s.b.(sandbox.Serving)
	if !ok {
		s.t.Fatalf("sandboxtest: Options.Serve, but %s has no served helper", s.b.Name())
	}
	sv, err := serving.Serve(spec)
	if err != nil {
		s.t.Fatalf("Serve: %v", err)
	}
	defer sv.Close()
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		s.t.Fatal(err)
	}
	defer devNull.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		s.t.Fatal(err)
	}
	defer pr.Close()
	_, wait, err := sv.Start(sandbox.ServeRequest{Argv: sandbox.Plain(line), Dir: s.proj,
		Env: env, Stdin: devNull, Stdout: pw, Stderr: pw})
	pw.Close()
	if err != nil {
		s.t.Fatalf("served start of %q: %v", line, err)
	}
	out, _ := io.ReadAll(pr)
	status, err := wait()
	if err != nil {
		s.t.Fatalf("served wait for %q: %v", line, err)
	}
	return string(out), statusCode(status)
}

func statusCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
