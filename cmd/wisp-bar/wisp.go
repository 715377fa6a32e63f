package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// wispProgram finds wisp beside wisp-bar (as make install puts them), or
// on PATH.
func wispProgram() (string, error) {
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "wisp")
		if info, err := os.Stat(beside); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	path, err := exec.LookPath("wisp")
	if err != nil {
		return "", errors.New("wisp is neither beside wisp-bar nor on PATH, and `wisp logs` reads the audit log for a person; install wisp with make install")
	}
	return path, nil
}
