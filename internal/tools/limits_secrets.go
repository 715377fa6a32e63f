package tools

import (
	"fmt"
	"os"
	"strings"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

// maxSecretsShown bounds how many secret paths the limits text names.
const maxSecretsShown = 12

// secretsLimits tells the model which of the person's secrets commands
// cannot read, how the person can give one if it is really needed, and
// which variables commands go without (names only, never a value).
func secretsLimits(r *runner.Runner) string {
	home, _ := os.UserHomeDir()
	var there []string
	for _, p := range r.Spec.DenyRead {
		if _, err := os.Lstat(p); err == nil {
			there = append(there, sandbox.DisplayPath(p, home))
		}
	}
	var b strings.Builder
	if len(r.Spec.DenyRead) > 0 {
		shown := there
		if len(shown) > maxSecretsShown {
			shown = append(shown[:maxSecretsShown:maxSecretsShown], "…")
		}
		list := "none of them exists here"
		if len(shown) > 0 {
			list = "here: " + strings.Join(shown, ", ")
		}
		fmt.Fprintf(&b, "Commands cannot read the person's secrets (keys, tokens, cloud and browser stores; %s). "+
			"If you really need one, ask the person to paste it, or to run the command themselves with !!.\n", list)
	}
	if dropped := r.DroppedEnv(); len(dropped) > 0 {
		fmt.Fprintf(&b, "Commands go without these variables of wisp's environment, which hold secrets: %s.\n", strings.Join(dropped, ", "))
	}
	return b.String()
}
