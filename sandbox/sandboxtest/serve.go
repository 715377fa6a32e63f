package sandboxtest

import (
	"io"
	"os"
	"reflect"
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
	req := sandbox.ServeRequest{Argv: sandbox.Plain(line), Dir: s.proj, Env: env, Stdin: devNull, Stdout: pw, Stderr: pw}
	_, wait, err := s.server(spec, line).Start(req)
	if err != nil { // a command before may have ended its helper: the runner starts another
		s.t.Logf("the served helper did not start %q (%v): starting a new one", line, err)
		s.closeServer()
		_, wait, err = s.server(spec, line).Start(req)
	}
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

// server is the served helper for spec, kept across commands as the runner
// keeps it: the one already running when it serves spec exactly as a
// command's own helper would confine line, else a new one.
func (s *suite) server(spec sandbox.Spec, line string) sandbox.Server {
	s.t.Helper()
	serving, ok := s.b.(sandbox.Serving)
	if !ok {
		s.t.Fatalf("sandboxtest: Options.Serve, but %s has no served helper", s.b.Name())
	}
	argv, err := s.b.Command(spec, line)
	if err != nil {
		s.t.Fatalf("Command(%q): %v", line, err)
	}
	if s.served != nil && reflect.DeepEqual(s.servedSpec, spec) && s.served.Serves(argv) {
		return s.served
	}
	s.closeServer()
	sv, err := serving.Serve(spec)
	if err != nil {
		s.t.Fatalf("Serve: %v", err)
	}
	s.served, s.servedSpec = sv, spec
	return sv
}

func (s *suite) closeServer() {
	if s.served != nil {
		s.served.Close()
		s.served = nil
	}
}

func statusCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
