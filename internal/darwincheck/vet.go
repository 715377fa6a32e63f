package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	analysisdriver "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/asmdecl"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/buildtag"
	"golang.org/x/tools/go/analysis/passes/cgocall"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/directive"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/framepointer"
	"golang.org/x/tools/go/analysis/passes/hostport"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/slog"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stdversion"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unsafeptr"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/analysis/passes/waitgroup"
	"golang.org/x/tools/go/packages"
)

// vetSuite is go vet's own list of analyzers (cmd/vet/main.go), in its order.
var vetSuite = []*analysis.Analyzer{
	appends.Analyzer, asmdecl.Analyzer, assign.Analyzer, atomic.Analyzer,
	bools.Analyzer, buildtag.Analyzer, cgocall.Analyzer, composite.Analyzer,
	copylock.Analyzer, defers.Analyzer, directive.Analyzer, errorsas.Analyzer,
	framepointer.Analyzer, httpresponse.Analyzer, hostport.Analyzer,
	ifaceassert.Analyzer, loopclosure.Analyzer, lostcancel.Analyzer,
	nilfunc.Analyzer, printf.Analyzer, shift.Analyzer, sigchanyzer.Analyzer,
	slog.Analyzer, stdmethods.Analyzer, stdversion.Analyzer,
	stringintconv.Analyzer, structtag.Analyzer, tests.Analyzer,
	testinggoroutine.Analyzer, timeformat.Analyzer, unmarshal.Analyzer,
	unreachable.Analyzer, unsafeptr.Analyzer, unusedresult.Analyzer,
	waitgroup.Analyzer,
}

// vet runs go vet's analyzers over paths (packages without cgo, and their
// tests) as they build for target with cgo off or on, type-checking them
// and every dependency from source. `GOOS=darwin go vet` would compile
// every dependency for darwin instead, once per cgo setting: minutes on
// two cores, where this takes seconds, and finds the same type errors and
// the same diagnostics. It returns each problem as "file:line:col: message".
func vet(dir string, target platform, cgo bool, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	cgoEnabled := "CGO_ENABLED=0"
	if cgo {
		cgoEnabled = "CGO_ENABLED=1"
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   dir,
		Env:   append(os.Environ(), "GOOS="+target.goos, "GOARCH="+target.goarch, cgoEnabled),
		Tests: true,
	}
	loaded, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, fmt.Errorf("loading %d packages for %s (%s): %w", len(paths), target, cgoEnabled, err)
	}
	c := newChecker(dir, target)
	packages.Visit(loaded, nil, func(pkg *packages.Package) {
		for _, err := range pkg.Errors {
			c.report(c.relative(err.Error()))
		}
	})
	graph, err := analysisdriver.Analyze(vetSuite, vetRoots(loaded), nil)
	if err != nil {
		return nil, fmt.Errorf("running vet's analyzers for %s (%s): %w", target, cgoEnabled, err)
	}
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil && len(act.Package.Errors) == 0 { // else reported above
			c.report(fmt.Sprintf("%s: %s: %v", act.Package.PkgPath, act.Analyzer.Name, act.Err))
		}
		for _, diag := range act.Diagnostics {
			pos := act.Package.Fset.Position(diag.Pos)
			c.report(fmt.Sprintf("%s:%d:%d: %s", c.relative(pos.Filename), pos.Line, pos.Column, diag.Message))
		}
	}
	sort.Strings(c.problems)
	return c.problems, nil
}

// vetRoots are the packages go vet would vet: each package as compiled for
// its tests where it has tests (the same files and its _test.go files),
// else as it is, and its external test package; never the generated main
// of a test binary.
func vetRoots(loaded []*packages.Package) []*packages.Package {
	ids := map[string]bool{}
	for _, pkg := range loaded {
		ids[pkg.ID] = true
	}
	var roots []*packages.Package
	for _, pkg := range loaded {
		if isTestMain(pkg) || ids[testVariantOf(pkg)] {
			continue
		}
		roots = append(roots, pkg)
	}
	return roots
}

// vettable is what vet can check of the patterns for target: the main
// module's packages that use cgo there neither themselves, nor through a
// dependency, nor in their tests, by import path.
func vettable(dir string, target platform, patterns []string) ([]string, error) {
	roots, err := load(dir, target, patterns)
	if err != nil {
		return nil, err
	}
	c := newChecker(dir, target)
	usesCgo := map[string]bool{}
	for _, pkg := range roots {
		if inMainModule(pkg) && len(pkg.GoFiles) > 0 && !strings.HasSuffix(pkg.Name, "_test") {
			usesCgo[pkg.PkgPath] = usesCgo[pkg.PkgPath] || c.usesCgo(pkg)
		}
	}
	var paths []string
	for path, cgo := range usesCgo {
		if !cgo {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// vetName is how a vet run names itself in the output.
func vetName(target platform, cgo bool) string {
	setting := "0"
	if cgo {
		setting = "1"
	}
	return fmt.Sprintf("%s, CGO_ENABLED=%s", target, setting)
}
