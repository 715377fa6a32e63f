//go:build !linux && !darwin

package sandbox

func describeBackend(*Status, Backend) {}
