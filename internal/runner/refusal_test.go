package runner_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/runner"
)

const offerLine = "ask again with outsideSandbox true"

// newNetworkOffFixture is a confined runner with the network off and no
// domain listed, as commandPolicy.sandbox.allowNetwork false leaves it, and
// a run outside the sandbox allowed (so that withholding the offer shows).
func newNetworkOffFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t, true)
	f.r.Config.CommandPolicy.Sandbox.AllowNetwork = false
	f.r.Config.CommandPolicy.Sandbox.AllowOutsideSandbox = true
	f.r.Spec.Network = false
	return f
}

// localServer answers on 127.0.0.1; unconfined, curl reaches it, so a
// refusal under the sandbox is the sandbox's.
func localServer(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("these tests need curl (.ci/run installs it)")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "hello") }))
	t.Cleanup(srv.Close)
	if out, err := exec.Command("curl", "-sS", "--noproxy", "*", srv.URL).CombinedOutput(); err != nil {
		t.Fatalf("control: unconfined curl cannot reach %s: %v\n%s", srv.URL, err, out)
	}
	return srv.URL
}

// Issue 28 item 4: a name curl would fetch through wisp's proxy is named
// as the network being off, with the domain list as the way to open it,
// and the model is not pushed outside the sandbox.
func TestNetworkOffNamedWithTheDomainList(t *testing.T) {
	f := newNetworkOffFixture(t)
	res := f.run(t, runner.Request{Line: "curl -sS https://registry.test/pkg", Origin: runner.Model})
	if res.ExitCode == 0 {
		t.Fatalf("curl reached the network with it off:\n%s", res.Output)
	}
	want := "sandbox: the network is off for confined commands (commandPolicy.sandbox.allowNetwork); to reach registry.test, " +
		"the person can list it in commandPolicy.sandbox.allowedDomains"
	text := res.ModelText()
	if !strings.Contains(text, want) {
		t.Errorf("the model is not told the network is off, and how to open it:\n%s", text)
	}
	if strings.Contains(text, offerLine) {
		t.Errorf("the model is offered the outside run where the domain list would serve:\n%s", text)
	}
	wantNote := "· the network is off for confined commands (commandPolicy.sandbox.allowNetwork); to let them reach registry.test, list it in commandPolicy.sandbox.allowedDomains"
	if res.PersonNote != wantNote {
		t.Errorf("the person reads\n%q\nwant\n%q", res.PersonNote, wantNote)
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"sandboxRefusal":"network-off"`)

	on := newFixture(t, true) // control: with the network on, the same failure is not the sandbox's
	if res := on.run(t, runner.Request{Line: "curl -sS https://registry.test/pkg", Origin: runner.Model}); res.SandboxLine != "" {
		t.Errorf("with the network on, a name not found is blamed on the sandbox: %q", res.SandboxLine)
	}
}

// A real connect to a server on this machine: refused, and named; the
// domain list cannot open this machine, so the outside run is offered.
func TestNetworkOffLocalServerRefusedAndNamed(t *testing.T) {
	url := localServer(t)
	f := newNetworkOffFixture(t)
	res := f.run(t, runner.Request{Line: "curl -sS --noproxy '*' " + url, Origin: runner.Model})
	if res.ExitCode == 0 {
		t.Fatalf("a confined curl reached %s with the network off:\n%s", url, res.Output)
	}
	text := res.ModelText()
	for _, want := range []string{
		"sandbox: the network is off for confined commands (commandPolicy.sandbox.allowNetwork); 127.0.0.1 is this machine",
		offerLine,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the model's text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "may have refused") || strings.Contains(res.PersonNote, "no path to check") {
		t.Errorf("the refusal is still a guess:\n%s\n%s", text, res.PersonNote)
	}
}

// A program that connects by itself (no proxy): the list would not serve.
func TestNetworkOffDirectSocketConnect(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	url := localServer(t)
	port := url[strings.LastIndexByte(url, ':')+1:]
	f := newNetworkOffFixture(t)
	line := "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", " + port + "))'"
	res := f.run(t, runner.Request{Line: line, Origin: runner.Person})
	if res.ExitCode == 0 {
		t.Fatalf("a confined socket connected with the network off:\n%s", res.Output)
	}
	if !strings.HasPrefix(res.SandboxLine, "sandbox: the network is off for confined commands (commandPolicy.sandbox.allowNetwork)") {
		t.Errorf("model line %q", res.SandboxLine)
	}
	if !strings.HasPrefix(res.PersonNote, "· the network is off for confined commands") || !strings.Contains(res.PersonNote, "type !!") {
		t.Errorf("person note %q", res.PersonNote)
	}
	assertAudit(t, f.home, `"event":"command.typed"`, `"sandboxRefused":true`, `"sandboxRefusal":"network-off"`)
}

// Issue 28 item 5: a refusal in a line that exits 0 is told all the same.
func TestRefusalInALineThatExitsZero(t *testing.T) {
	for _, origin := range []runner.Origin{runner.Model, runner.Person} {
		t.Run(string(origin), func(t *testing.T) {
			f := newFixture(t, true)
			target := filepath.Join(f.outside, "x")
			res := f.run(t, runner.Request{Line: "touch " + target + "; echo done", Origin: origin})
			if res.ExitCode != 0 {
				t.Fatalf("exit %d, want 0 (echo ran last):\n%s", res.ExitCode, res.Output)
			}
			if _, err := os.Stat(target); err == nil {
				t.Fatal("the file outside was created")
			}
			text := res.ModelText()
			if !strings.Contains(text, "done\n[exit status 0]\nsandbox: refused writing to "+target+"; commands may write only under ") {
				t.Errorf("the model does not hear of the refusal:\n%s", text)
			}
			if !strings.HasPrefix(res.PersonNote, "· the sandbox refused writing to "+target) {
				t.Errorf("the person does not hear of it: %q", res.PersonNote)
			}
			assertAudit(t, f.home, `"event":"command.outcome"`, `"exitCode":0`, `"sandboxRefusal":"refused"`)
		})
	}
}

// A command that worked says nothing for an errno text that names no
// refusal (a guess) or something other than the sandox; failing, the same
// output is still read as before.
func TestExitZeroSaysNothingForAGuess(t *testing.T) {
	f := newFixture(t, true)
	for _, line := range []string{
		"echo 'Error: Operation not permitted'",
		"echo 'touch: cannot touch ro/x: Permission denied'",
		"echo fine",
	} {
		if res := f.run(t, runner.Request{Line: line, Origin: runner.Model}); res.ExitCode != 0 || res.SandboxLine != "" || res.PersonNote != "" {
			t.Errorf("%s: exit %d, sandbox line %q, note %q", line, res.ExitCode, res.SandboxLine, res.PersonNote)
		}
	}
	res := f.run(t, runner.Request{Line: "echo 'Error: Operation not permitted'; false", Origin: runner.Model})
	if !strings.HasPrefix(res.SandboxLine, "sandbox: the sandbox may have refused this (Operation not permitted") {
		t.Errorf("failing, the guess is no longer told: %q", res.SandboxLine)
	}
}

// Issue 32 items 4 and 6: a Unix socket a command makes for itself works
// under the real sandbox where the mode can tell it from the person's
// (here a mount namespace), and where it cannot, the refusal is named as
// the sandbox's with the network on and the command exiting 0.
func TestOwnUnixSocketWorksOrIsNamed(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Seatbelt refuses a Unix socket's bind and connect, not its creation: this output is Linux's")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	f := newFixture(t, true)
	line := "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind(\"own.sock\"); s.listen(); " +
		"c = socket.socket(socket.AF_UNIX); c.connect(\"own.sock\"); print(\"own socket\")'; echo done"
	res := f.run(t, runner.Request{Line: line, Origin: runner.Model})
	if !strings.Contains(res.Output, "Operation not permitted") {
		if !strings.Contains(res.Output, "own socket") || res.SandboxLine != "" {
			t.Fatalf("the command's own Unix socket did not work (sandbox line %q):\n%s", res.SandboxLine, res.Output)
		}
		return
	}
	want := "sandbox: refused a Unix socket: here confined commands may not make Unix sockets at all"
	if !strings.HasPrefix(res.SandboxLine, want) {
		t.Errorf("model line %q, want it to start %q", res.SandboxLine, want)
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"sandboxRefusal":"refused-socket"`)
}
