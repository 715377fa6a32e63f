package main

import (
	"fmt"
	"os"

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
		return err == nil && b.Name() == "landlock", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
