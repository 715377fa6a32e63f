package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// A base URL without a scheme or a host is refused when it is set, with
// an example; a good one and model.contextTokens are taken.
func TestSetModelBaseURLAndContextTokens(t *testing.T) {
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	for _, bad := range []string{"127.0.0.1:11434", "localhost:11434/v1", "http://", "ftp://host/v1"} {
		err := Set(h, "model.baseURL", bad)
		if err == nil || !strings.Contains(err.Error(), "model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1") {
			t.Errorf("set %q: %v", bad, err)
		}
	}
	if err := Set(h, "model.baseURL", "http://10.0.0.5:8080/v1"); err != nil {
		t.Fatal(err)
	}
	if err := Set(h, "model.contextTokens", "512"); err == nil || !strings.Contains(err.Error(), "at least 1024") {
		t.Errorf("contextTokens 512: %v", err)
	}
	if err := Set(h, "model.contextTokens", "many"); err == nil || !strings.Contains(err.Error(), "whole number") {
		t.Errorf("contextTokens many: %v", err)
	}
	if err := Set(h, "model.contextTokens", "32768"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(h)
	if err != nil || cfg.Model.ContextTokens != 32768 || cfg.Model.BaseURL != "http://10.0.0.5:8080/v1" {
		t.Errorf("loaded %+v, %v", cfg.Model, err)
	}
	if Default().Model.ContextTokens != 4096 {
		t.Errorf("default contextTokens %d", Default().Model.ContextTokens)
	}
}
