package deptest

import (
	"fmt"
	"sort"
	"strings"
)

// A Violation is one dependency a rule forbids.
type Violation struct {
	Package, Dep string
	Why          string
	Chain        []string // how Package comes to depend on Dep
}

func (v Violation) String() string {
	return fmt.Sprintf("%s depends on %s (%s): %s", v.Package, v.Dep, v.Why, strings.Join(v.Chain, " -> "))
}

// Check applies rules, and two rules for every package of this module in
// graph: only faces depend on faces, and only a command's own packages
// import under cmd/.
func Check(graph Graph, rules []Rule) []Violation {
	var found []Violation
	for _, path := range graph.sortedPaths() {
		if !within(path, Module) {
			continue
		}
		for _, dep := range graph[path].Deps {
			if why := forbidden(path, dep, rules); why != "" {
				found = append(found, Violation{path, dep, why, graph.chain(path, dep)})
			}
		}
	}
	return found
}

// forbidden says why path may not depend on dep, or "" when it may.
func forbidden(path, dep string, rules []Rule) string {
	if cmd := commandOf(dep); cmd != "" && !within(path, cmd) {
		return "nothing outside " + cmd + " imports it"
	}
	if withinAny(dep, Faces) && !withinAny(path, Faces) {
		return "only faces depend on a face"
	}
	for _, rule := range rules {
		if !rule.applies(path) {
			continue
		}
		if withinAny(dep, rule.Forbidden) {
			return rule.Package + " never reaches it"
		}
		if within(dep, rule.Package) {
			continue
		}
		if rule.OnlyWisp != nil && within(dep, Module) && !withinAny(dep, rule.OnlyWisp) {
			return rule.Package + " depends on no other wisp package" + allowedNote(rule.OnlyWisp)
		}
	}
	return ""
}

func allowedNote(allowed []string) string {
	if len(allowed) == 0 {
		return ""
	}
	return " than " + strings.Join(allowed, ", ")
}

// commandOf returns the command tree (Module/cmd/NAME) path lies in, or "".
func commandOf(path string) string {
	rest, ok := strings.CutPrefix(path, Module+"/cmd/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return Module + "/cmd/" + name
}

// CheckPureGo reports why program would not build, or would build
// differently, with CGO_ENABLED=0: a package of its closure that the go
// command could not list, or one outside the standard library with cgo
// files, unless it is among fallbacks, known to build without them (the
// standard library's all do). A graph listed with CGO_ENABLED=0 finds the
// first kind, one with cgo on the second.
func CheckPureGo(graph Graph, program string, fallbacks []string) []Violation {
	root, ok := graph[program]
	if !ok {
		return []Violation{{Package: program, Why: "not in the listing", Chain: []string{program}}}
	}
	var found []Violation
	for _, path := range append([]string{program}, root.Deps...) {
		pkg, ok := graph[path]
		if !ok {
			continue
		}
		if why := cgoProblem(pkg, fallbacks); why != "" {
			found = append(found, Violation{program, path, why, graph.chain(program, path)})
		}
	}
	return found
}

func cgoProblem(pkg *Package, fallbacks []string) string {
	if pkg.Error != nil {
		return "go list: " + pkg.Error.Err
	}
	if len(pkg.CgoFiles) > 0 && !pkg.Standard && !withinAny(pkg.ImportPath, fallbacks) {
		return "cgo files " + strings.Join(pkg.CgoFiles, ", ") + ", but wisp builds with CGO_ENABLED=0"
	}
	return ""
}

func (g Graph) sortedPaths() []string {
	paths := make([]string, 0, len(g))
	for path := range g {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	return paths
}
