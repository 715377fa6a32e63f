package app

import (
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

// SandboxLabel is the status line's sandbox: Landlock ABI n, Seatbelt,
// off, nested, or none and why.
func SandboxLabel(f *Factory, s *Session, userHome string) string {
	switch s.Runner.Resolve(false) {
	case runner.ModeSandboxOff:
		if s.Runner.Unsafe {
			return "off (--unsafe)"
		}
		return "off"
	case runner.ModeNested:
		return "nested"
	}
	if s.Runner.Backend == nil {
		return "none: commands that need it do not run"
	}
	if s.Runner.Backend.Name() != "landlock" {
		return "Seatbelt"
	}
	exe, _ := os.Executable()
	spec, err := sandbox.NewSpec(SpecOptions(f, s.Cfg, s.Home, s.Runner.Dir, userHome))
	if err != nil {
		return "Landlock"
	}
	if st := sandbox.Report(exe, spec); st.Landlock != nil {
		return fmt.Sprintf("Landlock ABI %d", st.Landlock.ABI)
	}
	return "Landlock"
}
