package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseProblemsNameTheKey(t *testing.T) {
	tests := []struct {
		json string
		want []string
	}{
		{`{"aproval": {}}`, []string{"aproval is not a known key (did you mean approval?)"}},
		{`{"approval": {"treshold": "low"}}`, []string{"approval.treshold is not a known key (did you mean approval.threshold?)"}},
		{`{"approval": {"threshold": "sometimes"}}`, []string{`approval.threshold must be one of low, moderate, high, never, not "sometimes"`}},
		{`{"approval": {"outOfBand": "yes"}}`, []string{`approval.outOfBand must be true or false, not "yes"`}},
		{`{"limits": {"outputBytes": 1.5}}`, []string{"limits.outputBytes must be a whole number, not 1.5"}},
		{`{"limits": {"commandTimeoutSeconds": 0}}`, []string{"limits.commandTimeoutSeconds must be at least 1, not 0"}},
		{`{"commandPolicy": {"deny": ["ok", "(bad", 3]}}`, []string{
			"commandPolicy.deny[1] is not a valid regular expression: error parsing regexp: missing closing ): `(bad`",
			"commandPolicy.deny[2] must be a string, not 3",
		}},
		{`{"commandPolicy": {"sandbox": []}}`, []string{"commandPolicy.sandbox must be an object, not a list"}},
		{`{"zzzzzzzz": 1}`, []string{"zzzzzzzz is not a known key"}},
		{`[1]`, []string{"the file must hold one JSON object"}},
		{`{"model": {"name": "x"}`, []string{"not valid JSON at line 1, column 23: the file ends before the JSON does (a missing } or ]), in the line `{\"model\": {\"name\": \"x\"}`"}},
	}
	for _, tt := range tests {
		_, err := Parse("config.json", []byte(tt.json))
		var invalid *InvalidError
		if !errors.As(err, &invalid) {
			t.Errorf("%s: got %v, want an InvalidError", tt.json, err)
			continue
		}
		if strings.Join(invalid.Problems, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n got  %q\n want %q", tt.json, invalid.Problems, tt.want)
		}
	}
}

func TestParseFillsDefaults(t *testing.T) {
	cfg, err := Parse("config.json", []byte(`{"approval": {"threshold": "high"}, "model": {"name": "qwen3"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Approval.Threshold = "high"
	want.Model.Name = "qwen3"
	if cfg.Approval != want.Approval || cfg.Model != want.Model || cfg.Limits != want.Limits {
		t.Errorf("got %+v, want %+v", cfg, want)
	}
	if !cfg.CommandPolicy.Sandbox.Enabled || !cfg.CommandPolicy.Sandbox.AllowOutsideSandbox {
		t.Errorf("sandbox defaults lost: %+v", cfg.CommandPolicy.Sandbox)
	}
}

func TestLoadMissingFileIsDefaults(t *testing.T) {
	cfg, err := Load(Home{Dir: t.TempDir()})
	if err != nil || cfg.Approval.Threshold != "" || cfg.Limits.CommandTimeoutSeconds != 120 {
		t.Errorf("Load = %+v, %v", cfg, err)
	}
}

// Unset and moderate are told apart, so that the default can depend on
// the sandbox; an empty string in the file is not a way to unset it.
func TestThresholdUnsetIsNotModerate(t *testing.T) {
	cfg, err := Parse("config.json", []byte(`{"approval": {"threshold": "moderate"}}`))
	if err != nil || cfg.Approval.Threshold != "moderate" {
		t.Errorf("set to moderate: %+v, %v", cfg.Approval, err)
	}
	cfg, err = Parse("config.json", []byte(`{"approval": {"outOfBand": true}}`))
	if err != nil || cfg.Approval.Threshold != "" {
		t.Errorf("unset: %+v, %v", cfg.Approval, err)
	}
	if _, err := Parse("config.json", []byte(`{"approval": {"threshold": ""}}`)); err == nil {
		t.Error(`"threshold": "" was accepted`)
	}
}

func TestSetKeepsOtherKeysAndMode(t *testing.T) {
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	if _, err := h.Ensure(); err != nil {
		t.Fatal(err)
	}
	orig := `{"commandPolicy": {"deny": ["^make deploy"]}, "model": {"name": "a"}}`
	os.WriteFile(h.ConfigFile(), []byte(orig), 0o644)
	if err := Set(h, "commandPolicy.sandbox.allowOutsideSandbox", "false"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(h)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CommandPolicy.Sandbox.AllowOutsideSandbox || cfg.Model.Name != "a" || cfg.CommandPolicy.Deny[0] != "^make deploy" {
		t.Errorf("after set: %+v", cfg)
	}
	info, _ := os.Stat(h.ConfigFile())
	if info.Mode().Perm() != 0o600 {
		t.Errorf("config.json mode %o, want 600", info.Mode().Perm())
	}
}

func TestSetRefusals(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	tests := []struct{ key, value, want string }{
		{"commandPolicy.deny", "x", "key cannot be set"},
		{"approval.threshold", "sometimes", `takes one of low, moderate, high, never, not "sometimes"`},
		{"approval.outOfBand", "yes", `takes true or false, not "yes"`},
		{"ui.theme", "blue", `takes one of dark, light, not "blue"`},
	}
	for _, tt := range tests {
		err := Set(h, tt.key, tt.value)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Set(%s, %s) = %v, want %q", tt.key, tt.value, err, tt.want)
		}
	}
	if _, err := os.Stat(h.ConfigFile()); err == nil {
		t.Error("a refused set wrote config.json")
	}
}

func TestSetNeverOverwritesAnInvalidFile(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	bad := []byte(`{"approval": {"threshold": "sometimes"}}`)
	os.WriteFile(h.ConfigFile(), bad, 0o600)
	err := Set(h, "approval.threshold", "low")
	var invalid *InvalidError
	if !errors.As(err, &invalid) {
		t.Fatalf("Set over an invalid file = %v, want InvalidError", err)
	}
	if got, _ := os.ReadFile(h.ConfigFile()); string(got) != string(bad) {
		t.Errorf("invalid file changed to %s", got)
	}
}

func TestGet(t *testing.T) {
	got, err := Get(Default(), "approval.timeoutSeconds")
	if err != nil || string(got) != `600` {
		t.Errorf("Get = %s, %v", got, err)
	}
	got, err = Get(Default(), "approval.threshold") // unset: cmd/wisp says what applies
	if err != nil || string(got) != `""` {
		t.Errorf("Get = %s, %v", got, err)
	}
	if _, err := Get(Default(), "approval.treshold"); err == nil || !strings.Contains(err.Error(), "did you mean approval.threshold?") {
		t.Errorf("Get of a typo = %v", err)
	}
}

func TestResolveHome(t *testing.T) {
	env := map[string]string{HomeEnv: "/x/wh"}
	h, _ := ResolveHome(func(k string) string { return env[k] }, func() (string, error) { return "/home/p", nil })
	if h.Dir != "/x/wh" || h.Given != "/x/wh" {
		t.Errorf("WISP_HOME ignored: %+v", h)
	}
	h, _ = ResolveHome(func(string) string { return "" }, func() (string, error) { return "/home/p", nil })
	if h.Dir != "/home/p/.wisp" {
		t.Errorf("default home %s", h.Dir)
	}
}
