package sandbox

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// HelperCommand is the hidden subcommand wisp re-executes itself as to
// confine one command on Linux: `wisp __sandbox-exec [flags] -- ARGV`.
const HelperCommand = "__sandbox-exec"

// HelperExecutable is the sandbox helper's own executable, installed beside
// wisp (cmd/wisp-sandbox). It is wisp's helper and nothing else: it links
// the standard library, go-landlock and x/sys only, so it starts in about
// the time of a Go program that does nothing, where wisp itself, run again
// as the helper, first runs the initialisers of everything it links (the
// model client, the MCP SDK). Where it is absent, wisp runs itself as the
// helper, as before: the same flags, the same confinement.
const HelperExecutable = "wisp-sandbox"

// BesideExecutables are wisp's executables as make install puts them, in
// one folder: each is kept unwritable inside a root like wisp's own.
var BesideExecutables = []string{"wisp", "wisp-agent", HelperExecutable, "wisp-bar"}

// BuildVersion is the version wisp and wisp-sandbox are stamped with (the
// Makefile sets it with -X, as it sets wisp's own). wisp tells a helper of
// its own executable (--version) which version it expects, and the helper
// confines nothing for another: the two speak one set of flags.
var BuildVersion = "0.1.0-dev"

// HelperFailedStatus is the helper's exit status when it cannot confine the
// command (as env and timeout use 125 for their own failures).
const HelperFailedStatus = 125

// HelperFailed, the helper's last word, says why the helper did not run the command.
func HelperFailed(err error) int {
	fmt.Fprintf(os.Stderr, "wisp: error: sandbox: %v\n", err)
	return HelperFailedStatus
}

// helperMain is the helper's entry, registered by the backend that has one
// (sandbox/landlock): nil where no linked backend confines by a helper.
var helperMain func(args []string) int

// RegisterHelper sets the helper's entry, from the init of the backend's
// package, so that MaybeHelperMain can run it without the front importing
// its backends.
func RegisterHelper(main func(args []string) int) { helperMain = main }

// MaybeHelperMain runs the helper when this process was started as
// `wisp __sandbox-exec …` (or wisp-sandbox so), and never returns then;
// otherwise it returns at once. A main that can be its own helper calls it
// first thing, and so does the TestMain of a test binary that stands in for
// wisp (sandboxtest.Main). It is a call, not an init of this package, so
// that a binary or test binary that merely links the sandbox does not
// become a helper behind its author's back. wisp-sandbox, which links
// little but the front and sandbox/landlock, is the helper whose start
// costs least.
func MaybeHelperMain() {
	if StartedAsHelper() {
		os.Exit(HelperMain(os.Args[2:]))
	}
}

// StartedAsHelper reports whether this process was started as the helper
// (`wisp __sandbox-exec …`), for a backend's init that must prepare the
// helper before main runs.
func StartedAsHelper() bool {
	return len(os.Args) > 1 && os.Args[1] == HelperCommand
}

// HelperMain runs the registered helper with args, or refuses where no
// linked backend has one: the helper is Linux's way of confining a command.
func HelperMain(args []string) int {
	if helperMain != nil {
		return helperMain(args)
	}
	switch runtime.GOOS {
	case "darwin":
		return HelperFailed(errors.New("the sandbox helper runs only on Linux; on macOS wisp uses sandbox-exec"))
	case "linux":
		return HelperFailed(errors.New("this program links no sandbox helper: import github.com/wisp-sh/wisp/sandbox/landlock in its main package"))
	}
	return HelperFailed(errors.New("the sandbox helper runs only on Linux"))
}
