package main

import "fmt"

// scriptCondition answers the custom conditions that scripts use, such as
// [landlock]. Each feature adds its condition here.
func scriptCondition(cond string) (bool, error) {
	switch cond {
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
