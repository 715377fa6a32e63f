// Command benchfloor is the floor for scripts/bench-run.sh: the least a Go
// program can do to run a line as wisp run does.
//
//	benchfloor LINE           starts /bin/sh -c LINE, waits, returns its status
//	benchfloor -reexec LINE   the same through a helper: it starts itself
//	                          again, and that copy execs /bin/sh -c LINE, as
//	                          wisp's Landlock helper does (without confining)
//
// Their cost over a bare `sh -c true` is the Go runtime's own start on the
// machine measured, once or twice, which no Go implementation of wisp's
// design can go below.
package main

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	args := os.Args[1:]
	switch {
	case len(args) == 2 && args[0] == "__exec":
		err := syscall.Exec("/bin/sh", []string{"/bin/sh", "-c", args[1]}, os.Environ())
		os.Stderr.WriteString("benchfloor: " + err.Error() + "\n")
		os.Exit(127)
	case len(args) == 2 && args[0] == "-reexec":
		exe, err := os.Executable()
		if err != nil {
			os.Exit(127)
		}
		run(exec.Command(exe, "__exec", args[1]))
	case len(args) == 1:
		run(exec.Command("/bin/sh", "-c", args[0]))
	default:
		os.Stderr.WriteString("usage: benchfloor [-reexec] LINE\n")
		os.Exit(2)
	}
}

func run(cmd *exec.Cmd) {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var exit *exec.ExitError
	switch err := cmd.Run(); {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		os.Exit(127)
	}
}
