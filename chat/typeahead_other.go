//go:build !linux && !darwin

package chat

func flushInput(int) error { return errFlushUnsupported }
