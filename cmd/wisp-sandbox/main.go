// Command wisp-sandbox is wisp's sandbox helper on Linux: wisp starts it as
// `wisp-sandbox __sandbox-exec [flags] -- ARGV` to confine one command (or,
// with --serve, every command of a session) under Landlock, and nothing
// else starts it. It is the helper wisp itself would be when run again,
// in an executable of its own that links only the sandbox front and
// sandbox/landlock, so that its start costs what a Go program that does
// nothing costs.
// Installed beside wisp; wisp verifies it before it runs it.
package main

import (
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
)

func main() {
	sandbox.MaybeHelperMain() // as the helper, never returns
	args := os.Args[1:]
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "version"):
		fmt.Printf("%s %s\n", sandbox.HelperExecutable, sandbox.BuildVersion)
	default:
		fmt.Fprintf(os.Stderr, "%s is wisp's sandbox helper: wisp runs it for each confined command, a person does not\n", sandbox.HelperExecutable)
		os.Exit(2)
	}
}
