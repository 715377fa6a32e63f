package agentcli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/config"
)

// doctorSandbox is `wisp doctor`'s sandbox line.
func doctorSandbox(f *app.Factory, _ config.Home) (string, error) {
	_, cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	if !cfg.CommandPolicy.Sandbox.Enabled {
		return "off: commandPolicy.sandbox.enabled is false, so commands run unconfined", nil
	}
	st, err := app.SandboxStatus(f)
	if err == nil {
		err = st.Err
	}
	if err != nil {
		if h := hintOf(err); h != "" {
			return "", fmt.Errorf("%w (%s)", err, h)
		}
		return "", err
	}
	// The roots and protected paths it would use, under the summary line.
	detail := st.Summary()
	for _, line := range st.Lines() {
		if hasAnyPrefix(line, "writable: ", "protected: ", "not covered: ", "unreadable: ", "readable again: ", "NOT unreadable: ", "environment: ") {
			detail += "\n              " + line
		}
	}
	return detail, nil
}

// hintOf is the hint err carries, for the line it is said on.
func hintOf(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
