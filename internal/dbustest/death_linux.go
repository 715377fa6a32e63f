package dbustest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill dbus-daemon if the test binary dies
// without running its cleanups (a panic, a -timeout), so no daemon outlives it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
