//go:build !linux

package testenv

// processes: without /proc, ps(1).
func processes() ([]Process, error) { return psProcesses() }
