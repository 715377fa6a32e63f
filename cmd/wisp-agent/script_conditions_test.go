package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
)

// scriptCondition answers the custom conditions that scripts use, such as
// [landlock]. Each feature adds its condition here.
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "landlock": // the kernel offers Landlock, so the helper can confine commands
		exe, err := os.Executable()
		if err != nil {
			return false, err
		}
		b, err := sandbox.Detect(exe)
		ok := err == nil && b.Name() == "landlock"
		if !ok && testenv.KernelRequired() && runtime.GOOS == "linux" {
			// A script's [!landlock] skip must not pass CI unnoticed (on
			// Linux: macOS has Seatbelt instead, which the sandbox tests run).
			return false, fmt.Errorf("Landlock is missing here (%v), and %s=1 makes that a failure", err, testenv.RequireKernelEnv)
		}
		return ok, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
