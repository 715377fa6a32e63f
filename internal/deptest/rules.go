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

// Faces are the packages that talk to a person or another program; the
// core they drive never imports them.
var Faces = own("chat", "mcp", "bar", "cmd", "darwin", "freedesktop")

// core may not reach a face nor the network stack's HTTP.
var core = append(Faces[:len(Faces):len(Faces)], "net/http")

// A Rule limits what one package, and each package under it, may depend
// on, directly or through others. Every path stands for itself and the
// packages under it.
type Rule struct {
	Package string
	// Forbidden are packages it must never depend on.
	Forbidden []string
	// OnlyWisp, when set, are the only packages of this module (besides its
	// own tree) it may depend on; an empty, non-nil list allows none.
	OnlyWisp []string
}

// Rules is DESIGN.md's import direction: config and audit at the bottom,
// faces at the top.
var Rules = []Rule{
	{Package: Module + "/config", Forbidden: core, OnlyWisp: []string{}},
	{Package: Module + "/audit", Forbidden: core, OnlyWisp: own("config")},
	{Package: Module + "/policy", Forbidden: core},
	{Package: Module + "/sandbox", Forbidden: core},
	{Package: Module + "/pending", Forbidden: core},
	{Package: Module + "/runner", Forbidden: Faces},
	{Package: Module + "/approval", Forbidden: Faces},
	{Package: Module + "/tools", Forbidden: Faces},
	{Package: Module + "/model", Forbidden: Faces},
	// The menu-bar helper speaks the pending channel and nothing else of
	// wisp's: it never runs a command nor decides one.
	{Package: Module + "/bar", Forbidden: own("chat", "mcp", "cmd", "runner", "approval", "sandbox", "policy"), OnlyWisp: own("pending", "config", "audit")},
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
