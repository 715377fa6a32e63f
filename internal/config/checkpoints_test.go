package config

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckpointsDefaultOnAndBounded(t *testing.T) {
	cfg, err := Parse("config.json", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Checkpoints{Enabled: true, MaxRootSize: 2 << 30, Keep: 100, MaxAgeDays: 30}
	if cfg.Checkpoints != want {
		t.Errorf("defaults %+v, want %+v", cfg.Checkpoints, want)
	}
	cfg, err = Parse("config.json", []byte(`{"checkpoints": {"enabled": false, "keep": 5}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Checkpoints.Enabled || cfg.Checkpoints.Keep != 5 || cfg.Checkpoints.MaxAgeDays != 30 {
		t.Errorf("set %+v: want off, keep 5, the rest defaults", cfg.Checkpoints)
	}
	for doc, problem := range map[string]string{
		`{"checkpoints": {"maxRootSize": 10}}`: "checkpoints.maxRootSize must be at least 1024, not 10",
		`{"checkpoints": {"keep": 0}}`:         "checkpoints.keep must be at least 1, not 0",
		`{"checkpoints": {"enabld": true}}`:    "checkpoints.enabld is not a known key (did you mean checkpoints.enabled?)",
	} {
		_, err := Parse("config.json", []byte(doc))
		var invalid *InvalidError
		if !errors.As(err, &invalid) || strings.Join(invalid.Problems, "\n") != problem {
			t.Errorf("%s: got %v, want %q", doc, err, problem)
		}
	}
}
