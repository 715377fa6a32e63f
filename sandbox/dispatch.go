package sandbox

import "os"

// init runs the helper when this process was started as `wisp
// __sandbox-exec …`, and never returns then. It is the package's one init,
// and it does work at init on purpose: the helper runs before every
// confined command, so its start is the sandbox's cost, and Go initialises
// a package as soon as its own imports are ready, which for this package is
// before most of wisp (regexp, the policy rules, net/http, the model and MCP
// clients). A dispatch in main would wait for all of those. Any binary that
// imports this package, test binaries included, acts as the helper when so
// started.
func init() {
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(HelperMain(os.Args[2:]))
	}
}
