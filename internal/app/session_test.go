package app

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
)

// The session's threshold follows how its commands run: high confined,
// moderate with --unsafe, the sandbox off by config, or nested; a set
// threshold as set in each.
func TestSessionThresholdFollowsTheRunner(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		enabled, unsafe, nested bool
		set, want               string
	}{
		{"confined", true, false, false, "", "high"},
		{"--unsafe", true, true, false, "", "moderate"},
		{"sandbox off", false, false, false, "", "moderate"},
		{"nested", true, false, true, "", "moderate"},
		{"set, confined", true, false, false, "moderate", "moderate"},
		{"set, nested", true, false, true, "low", "low"},
		{"set, off", false, false, false, "never", "never"},
	} {
		cfg := config.Default()
		cfg.CommandPolicy.Sandbox.Enabled = tc.enabled
		cfg.Approval.Threshold = tc.set
		s := &Session{Cfg: cfg, Runner: &runner.Runner{Config: cfg, Unsafe: tc.unsafe, Nested: tc.nested}}
		if got := s.Threshold().Level; got != tc.want {
			t.Errorf("%s: threshold %q, want %q", tc.name, got, tc.want)
		}
	}
}

// With checkpoints taken before each turn (the agent's faces), the
// confined default says that /undo lets a deletion inside the roots pass;
// wisp run, which takes none, keeps the sandbox's own why. The level is
// the same: the agent lowers the lines a checkpoint covers.
func TestSessionThresholdSaysWhatCheckpointsChange(t *testing.T) {
	cfg := config.Default()
	s := &Session{Cfg: cfg, Runner: &runner.Runner{Config: cfg}}
	run := s.Threshold()
	s.Checkpoints = true
	chat := s.Threshold()
	if chat.Level != run.Level {
		t.Errorf("checkpoints changed the level: %q, not %q", chat.Level, run.Level)
	}
	if chat.Why != approval.UndoThresholdWhy || run.Why == approval.UndoThresholdWhy {
		t.Errorf("why with checkpoints %q, without %q", chat.Why, run.Why)
	}
	s.Cfg.Approval.Threshold = "moderate"
	if got := s.Threshold().Why; got == approval.UndoThresholdWhy {
		t.Errorf("a set threshold reads %q", got)
	}
}
