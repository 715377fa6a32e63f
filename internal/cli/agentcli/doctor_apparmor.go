package agentcli

import (
	"fmt"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// doctorAppArmor is `wisp doctor`'s apparmor line: where AppArmor
// restricts unprivileged user namespaces, what that leaves unprotected and
// the one fix, which touches only wisp (its profile, and the command that
// loads it), never the sysctl.
func doctorAppArmor(f *app.Factory, homeErr error) (string, error) {
	if homeErr != nil {
		return "", errHomeUnsafe
	}
	_, cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	if !cfg.CommandPolicy.Sandbox.Enabled {
		return "not checked: commandPolicy.sandbox.enabled is false", nil
	}
	st, err := app.SandboxStatus(f)
	if err != nil {
		return "", fmt.Errorf("not checked: %w", err)
	}
	exe, err := f.Executable()
	if err != nil {
		return "", fmt.Errorf("find wisp's own binary: %w", err)
	}
	return landlock.DetectUsernsRestriction(st).Doctor(st, exe)
}
