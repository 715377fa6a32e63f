package tools_test

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/sandbox"
)

// TestLimitsNameSecretsAndDroppedVariables: the model's limits text says
// which secrets commands cannot read, how the person can give one, and
// the dropped variables by name, never their values.
func TestLimitsNameSecretsAndDroppedVariables(t *testing.T) {
	secret := t.TempDir()
	cfg := config.Default()
	r := &runner.Runner{Config: cfg, Dir: "/p", Env: []string{"PATH=/bin", "OPENAI_API_KEY=sk-value-not-shown", "GH_TOKEN=ghp-value"},
		Spec: sandbox.Spec{Roots: []string{"/p"}, Network: true, DenyRead: []string{secret, "/nonexistent/.aws"},
			Env: sandbox.DefaultEnvFilter("", nil, nil)}}
	text := (&tools.Toolbox{Runner: r}).Limits()
	for _, want := range []string{"Commands cannot read the person's secrets", secret, "paste it", "!!",
		"Commands go without these variables of wisp's environment, which hold secrets: OPENAI_API_KEY, GH_TOKEN."} {
		if !strings.Contains(text, want) {
			t.Errorf("the limits text lacks %q:\n%s", want, text)
		}
	}
	for _, not := range []string{"sk-value-not-shown", "ghp-value", "/nonexistent/.aws"} {
		if strings.Contains(text, not) {
			t.Errorf("the limits text shows %q:\n%s", not, text)
		}
	}
}
