//go:build !linux

package dbustest

import "os/exec"

// dieWithParent does nothing where there is no parent-death signal; the
// test's cleanup still kills the daemon.
func dieWithParent(cmd *exec.Cmd) {}
