// Command testreport runs `go test -json` and prints what go test prints
// without -json (a line a package, the output of what failed), then how
// long each package took against its time limit, slowest first: a suite
// creeping toward its limit is seen in CI's log before it fails there.
//
//	go run ./internal/testreport [-most N] [-limit [PATTERN=]D ...] -- go test -json -timeout 10m ./...
//
// A package's time limit is go test's -timeout, unless -limit gives it one
// of its own: -limit D for every package no pattern matches, -limit
// PATTERN=D for the packages PATTERN names (an import path, or a tree
// ending in /...). go test's -timeout, which ends a package outright, must
// be the longest of them; a package that passes but took longer than its
// own limit fails the report.
//
// It exits with go test's status, and non-zero also when a failure came
// through a status of 0.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses its arguments, runs the command and reports; it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	most, limits, command, err := parseArgs(args)
	if err == nil {
		err = limits.fit(limitOf(command))
	}
	if err != nil {
		fmt.Fprintf(stderr, "testreport: %v\nusage: testreport [-most N] [-limit [PATTERN=]DURATION ...] -- go test -json [flags] [packages]\n", err)
		return 2
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = stderr
	events, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintf(stderr, "testreport: start %s: %v\n", command[0], err)
		return 1
	}
	r := newReport(stdout, command)
	r.limits = limits
	readErr := r.read(events)
	waitErr := cmd.Wait()
	r.summary(most)
	switch {
	case readErr != nil:
		fmt.Fprintf(stderr, "testreport: reading go test's events: %v\n", readErr)
		return 1
	case waitErr != nil:
		return exitStatus(waitErr)
	case r.overLimit:
		fmt.Fprintln(stderr, "testreport: a package took longer than its own limit (-limit)")
		return 1
	case r.failed:
		fmt.Fprintln(stderr, "testreport: a package failed, though go test exited 0")
		return 1
	}
	return 0
}

func parseArgs(args []string) (most int, limits limitRules, command []string, err error) {
	most = 12
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--":
			if i+1 == len(args) {
				return 0, nil, nil, fmt.Errorf("no command after --")
			}
			return most, limits, args[i+1:], nil
		case "-most", "-limit":
			if i+1 == len(args) {
				return 0, nil, nil, fmt.Errorf("%s needs a value", args[i])
			}
			i++
			if args[i-1] == "-limit" {
				if limits, err = limits.add(args[i]); err != nil {
					return 0, nil, nil, err
				}
			} else if most, err = strconv.Atoi(args[i]); err != nil || most < 0 {
				return 0, nil, nil, fmt.Errorf("-most takes a whole number, not %q", args[i])
			}
		default:
			return 0, nil, nil, fmt.Errorf("unknown argument %q (the command goes after --)", args[i])
		}
	}
	return 0, nil, nil, fmt.Errorf("no command: give it after --")
}

func exitStatus(err error) int {
	if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() > 0 {
		return exit.ExitCode()
	}
	return 1
}
