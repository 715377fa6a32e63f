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
// the platform code only they use); no other package depends on them.
var Faces = own("internal/chat", "internal/mcp", "internal/tui", "internal/bar", "cmd", "internal/darwin", "internal/freedesktop")

// A Rule limits what one package, and each package under it, may depend
// on, directly or through others, beyond what holds for all (Check: only
// faces depend on a face, only a command imports its own packages). Every
// path stands for itself and the packages under it.
type Rule struct {
	Package string
	// Forbidden are packages it must never depend on.
	Forbidden []string
	// OnlyWisp, when set, are the only packages of this module (besides its
	// own tree) it may depend on; an empty, non-nil list allows none.
	OnlyWisp []string
}

// Rules is DESIGN.md's import direction below the faces: config and audit
// at the bottom, and the core that decides what runs (policy, sandbox,
// pending) never reaching for HTTP. runner and approval answer only to the
// rule for all.
var Rules = []Rule{
	{Package: Module + "/internal/config", Forbidden: []string{"net/http"}, OnlyWisp: own("internal/suggest")},
	{Package: Module + "/audit", Forbidden: []string{"net/http"}, OnlyWisp: own("internal/config", "internal/suggest", "internal/visible")},
	{Package: Module + "/policy", Forbidden: []string{"net/http"}},
	{Package: Module + "/sandbox", Forbidden: []string{"net/http"}},
	// git's guard sits below the sandbox's front: it takes roots and a
	// home, never a Spec, so that the front can import it.
	{Package: Module + "/sandbox/gitguard", OnlyWisp: own("sandbox/internal/paths")},
	{Package: Module + "/pending", Forbidden: []string{"net/http"}},
	// netproxy is the network proxy itself: the standard library alone,
	// no wisp package, so that what decides on a host is all in one place.
	{Package: Module + "/internal/netproxy", OnlyWisp: []string{}},
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
