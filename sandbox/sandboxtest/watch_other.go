//go:build !linux

package sandboxtest

// watchProbe has nothing of its own off Linux: inotify is Linux's.
func watchProbe(string, []string) (bool, error) { return false, nil }
