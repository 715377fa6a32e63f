package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

const secretValue = "sk-runner-test-secret-value"

// secretsFixture is a confined fixture whose person has a home outside
// every root, with a key in ~/.ssh, and an environment with secrets in it.
func secretsFixture(t *testing.T) (*fixture, string) {
	t.Helper()
	f := newFixture(t, true)
	userHome, _ := os.UserHomeDir()
	person, err := os.MkdirTemp(userHome, "wisp-runner-person-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(person) })
	key := filepath.Join(person, ".ssh", "id_ed25519")
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: f.project, WispHome: f.home.Dir,
		UserHome: person, AllowNetwork: true, Getenv: os.Getenv, APIKeyEnv: "MY_MODEL_SERVER"})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(key), 0o700)
	if err := os.WriteFile(key, []byte(secretValue+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.r.Spec = spec
	f.r.Env = append(os.Environ(), "OPENAI_API_KEY="+secretValue, "MY_MODEL_SERVER="+secretValue,
		"WISP_HOME="+f.home.Dir, "SSH_AUTH_SOCK=/run/agent."+secretValue, "AWS_REGION=eu-west-1")
	return f, key
}

// TestConfinedCommandsGoWithoutSecretVariables: the model's command and a
// person's `!` see no dropped variable, and keep the rest; `!!` and
// --unsafe keep the whole environment, the person's own.
func TestConfinedCommandsGoWithoutSecretVariables(t *testing.T) {
	f, _ := secretsFixture(t)
	for _, origin := range []runner.Origin{runner.Model, runner.Person} {
		res := f.run(t, runner.Request{Line: "env", Origin: origin})
		for _, name := range []string{secretValue, "OPENAI_API_KEY", "MY_MODEL_SERVER", "WISP_HOME", "SSH_AUTH_SOCK"} {
			if strings.Contains(res.Output, name) {
				t.Errorf("%s's confined env shows %s", origin, name)
			}
		}
		if !strings.Contains(res.Output, "AWS_REGION=eu-west-1") || !strings.Contains(res.Output, "PATH=") {
			t.Errorf("%s's confined env lost what it keeps:\n%s", origin, res.Output)
		}
	}
	for _, name := range []string{"OPENAI_API_KEY", "MY_MODEL_SERVER", "WISP_HOME", "SSH_AUTH_SOCK"} {
		if !strings.Contains(strings.Join(f.r.DroppedEnv(), " "), name) {
			t.Errorf("DroppedEnv lacks %s: %q", name, f.r.DroppedEnv())
		}
	}
	res := f.run(t, runner.Request{Line: "env", Origin: runner.Person, OutsideSandbox: true})
	if !strings.Contains(res.Output, "OPENAI_API_KEY="+secretValue) {
		t.Errorf("!! lost the person's environment:\n%.300s", res.Output)
	}
	f.r.Unsafe = true
	if res := f.run(t, runner.Request{Line: "env", Origin: runner.Person}); !strings.Contains(res.Output, "OPENAI_API_KEY=") {
		t.Errorf("--unsafe lost the person's environment")
	}
}

// TestSecretReadRefusedAndNamed: a confined cat of the key is refused, the
// model is told in the words and how the person can give it the
// file, the audit says refused-read with the path; `!!` reads it.
func TestSecretReadRefusedAndNamed(t *testing.T) {
	f, key := secretsFixture(t)
	res := f.run(t, runner.Request{Line: "cat " + key, Origin: runner.Model})
	if res.ExitCode == 0 || strings.Contains(res.Output, secretValue) {
		t.Fatalf("a confined command read the key: exit %d\n%s", res.ExitCode, res.Output)
	}
	want := "sandbox: refused reading " + key + ": secrets are not readable in the sandbox (commandPolicy.sandbox.denyRead)"
	if !strings.HasPrefix(res.SandboxLine, want) || !strings.Contains(res.SandboxLine, "!!") {
		t.Errorf("sandbox line %q\nwant it to start %q and name !!", res.SandboxLine, want)
	}
	assertAudit(t, f.home, `"event":"command.outcome"`, `"sandboxRefusal":"refused-read"`, `"sandboxPaths":["`+key+`"]`)
	typed := f.run(t, runner.Request{Line: "cat " + key, Origin: runner.Person})
	if !strings.HasPrefix(typed.PersonNote, "· the sandbox refused reading "+key+": secrets are not readable") {
		t.Errorf("the person's note %q", typed.PersonNote)
	}
	outside := f.run(t, runner.Request{Line: "cat " + key, Origin: runner.Person, OutsideSandbox: true})
	if !strings.Contains(outside.Output, secretValue) {
		t.Errorf("!! could not read the person's own key: %q", outside.Output)
	}
}

// TestServedHelperSeesNewEntriesBesideSecrets: the served helper grants
// the folders on the way to a secret entry by entry, at its start; a file
// made in the home after that reads at the next command (a new helper
// serves it), and the key beside it still does not.
func TestServedHelperSeesNewEntriesBesideSecrets(t *testing.T) {
	f, key := secretsFixture(t)
	defer f.r.Close()
	if res := f.run(t, runner.Request{Line: "true", Origin: runner.Model}); res.ExitCode != 0 {
		t.Fatalf("true: %+v", res)
	}
	later := filepath.Join(filepath.Dir(filepath.Dir(key)), "made-later.txt")
	if err := os.WriteFile(later, []byte("made after the helper started\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := f.run(t, runner.Request{Line: "cat " + later + " && cat " + key, Origin: runner.Model})
	if !strings.Contains(res.Output, "made after the helper started") {
		t.Errorf("a file made in the home after the served helper started does not read:\n%s", res.Output)
	}
	if strings.Contains(res.Output, secretValue) {
		t.Errorf("the key read:\n%s", res.Output)
	}
}
