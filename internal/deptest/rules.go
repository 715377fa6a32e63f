package deptest

import "strings"

// Module is wisp's module path.
const Module = "github.com/wisp-sh/wisp"

// own turns module-relative paths into import paths.
func own(paths ...string) []string {
	full := make([]string, len(paths))
	for i, p := range paths {
		full[i] = Module + "/" + p
	}
	return full
}

// Faces are the packages that talk to a person or another program (with
// the platform code only they use); no other package depends on them but
// the assembly and the commands above them.
var Faces = own("internal/chat", "internal/mcp", "internal/tui", "internal/bar", "internal/darwin", "internal/freedesktop", "internal/app", "internal/cli", "cmd")

// A Rule limits what one package, and each package under it, may depend
// on, directly or through others, beyond what holds for all (Check: only
// faces depend on a face, only a command imports its own packages). Every
// path stands for itself and the packages under it, unless Alone is set.
type Rule struct {
	Package string
	// Alone makes the rule hold for Package itself and not the packages
	// under it (the sandbox's front, not its backends).
	Alone bool
	// Forbidden are packages it must never depend on, even packages under
	// it.
	Forbidden []string
	// OnlyWisp, when set, are the only packages of this module (besides its
	// own tree) it may depend on; an empty, non-nil list allows none.
	OnlyWisp []string
}

// The agent's core, which the contracts and helpers below it never reach.
var core = own("internal/runner", "internal/approval", "internal/tools", "internal/agent", "internal/model")

// Rules is docs/architecture.md's table of who may import whom, as far as
// it forbids: config and audit at the bottom, the contracts (policy,
// sandbox, pending) never reaching for HTTP or the core, the model client
// apart from the runner, the two agent faces apart, the menu bar's side
// apart from what runs commands. Each rule's comment says why.
var Rules = []Rule{
	{Package: Module + "/internal/config", Forbidden: []string{"net/http"}, OnlyWisp: own("internal/suggest")},
	{Package: Module + "/audit", Forbidden: []string{"net/http"}, OnlyWisp: own("internal/config", "internal/suggest", "internal/visible")},
	// The lists decide on a line's words alone: what the sandbox would
	// allow never changes what the operator's lists say.
	{Package: Module + "/policy", Forbidden: append([]string{"net/http", Module + "/sandbox"}, core...)},
	// The channel on disk is read by wisp-bar, which must not link what runs
	// commands.
	{Package: Module + "/pending", Forbidden: append([]string{"net/http"}, core...)},
	// What confines a command knows nothing of who allowed it: never the
	// gate, the runner or the lists.
	{Package: Module + "/sandbox", Forbidden: append([]string{"net/http", Module + "/policy"}, core...)},
	// The front never links a backend: backends register with it, so a
	// program links only the backend it runs.
	{Package: Module + "/sandbox", Alone: true, Forbidden: own("sandbox/landlock", "sandbox/seatbelt")},
	// git's guard sits below the sandbox's front: it takes roots and a
	// home, never a Spec, so that the front can import it.
	{Package: Module + "/sandbox/gitguard", OnlyWisp: own("sandbox/internal/paths")},
	// netproxy is the network proxy itself: the standard library alone,
	// no wisp package, so that what decides on a host is all in one place;
	// its HTTP front is a package of its own that only the agent links.
	{Package: Module + "/internal/netproxy", OnlyWisp: []string{}},
	{Package: Module + "/internal/netproxy", Alone: true, Forbidden: []string{"net/http"}},
	// The model client speaks to a server and nothing else: it never runs
	// a command or asks a person.
	{Package: Module + "/internal/model", Forbidden: own("sandbox", "internal/runner", "internal/approval", "internal/tools", "internal/agent")},
	// One command's run never asks a person itself (the gate asks before)
	// and knows no model or conversation.
	{Package: Module + "/internal/runner", Forbidden: own("internal/approval", "internal/model", "internal/agent", "internal/tools")},
	{Package: Module + "/internal/approval", Forbidden: own("internal/agent", "internal/model", "internal/tools")},
	// The dialog model is keys and time in, an answer and lines out.
	{Package: Module + "/internal/approval/dialog", Forbidden: append(own("sandbox", "policy"), core...)},
	{Package: Module + "/internal/tools", Forbidden: own("internal/model", "internal/agent")},
	// The two faces of the agent share it (internal/agent, below the
	// faces) and never each other: the full screen is not built on the
	// line face, nor the line face on the full screen; neither on MCP's.
	{Package: Module + "/internal/tui", Forbidden: own("internal/chat", "internal/mcp")},
	{Package: Module + "/internal/chat", Forbidden: own("internal/tui", "internal/mcp")},
	{Package: Module + "/internal/mcp", Forbidden: own("internal/chat", "internal/tui")},
	// wisp-bar's side answers requests on disk; it never runs a command,
	// so it never links the runner, the gate or the sandbox.
	{Package: Module + "/internal/bar", Forbidden: append(own("sandbox"), core...)},
	{Package: Module + "/internal/darwin", Forbidden: append(own("sandbox"), core...)},
	{Package: Module + "/internal/freedesktop", Forbidden: append(own("sandbox"), core...)},
	{Package: Module + "/cmd/wisp-bar", Forbidden: append(own("sandbox"), core...)},
	// The assembly serves the commands, never the other way round; the
	// lean commands never link the agent's.
	{Package: Module + "/internal/app", Forbidden: own("internal/cli")},
	{Package: Module + "/internal/cli", Alone: true, Forbidden: own("internal/cli/agentcli")},
}

// applies reports whether rule holds for path.
func (rule Rule) applies(path string) bool {
	if rule.Alone {
		return path == rule.Package
	}
	return within(path, rule.Package)
}

// PureGoFallbacks are packages outside the standard library that have cgo
// files for when cgo is on and build without them when it is off, as wisp
// does: psx, go-landlock's all-threads syscalls, then uses the runtime's
// AllThreadsSyscall.
var PureGoFallbacks = []string{"kernel.org/pub/linux/libs/security/libcap/psx"}

// within reports whether path is root or a package under it.
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+"/")
}

func withinAny(path string, roots []string) bool {
	for _, root := range roots {
		if within(path, root) {
			return true
		}
	}
	return false
}
