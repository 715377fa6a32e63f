package sandbox

import "os"

// MaybeHelperMain runs the helper when this process was started as
// `wisp __sandbox-exec …` (or wisp-sandbox so), and never returns then;
// otherwise it returns at once. A main that can be its own helper calls it
// first thing, and so does the TestMain of a test binary that stands in for
// wisp (sandboxtest.Main). It is a call, not an init of this package, so
// that a binary or test binary that merely links the sandbox does not
// become a helper behind its author's back. wisp-sandbox, which links
// little but this package, is the helper whose start costs least.
func MaybeHelperMain() {
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(HelperMain(os.Args[2:]))
	}
}
