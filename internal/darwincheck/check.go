package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// platform names the GOOS/GOARCH the packages are checked for.
type platform struct{ goos, goarch string }

func (p platform) String() string { return p.goos + "/" + p.goarch }

// report is what one check found: the cgo packages it type-checked, and
// every error in them or their dependencies as "file:line:col: message".
type report struct {
	checked  []string
	problems []string
}

// check loads patterns for target and type-checks those that use cgo:
// those whose files import "C", and those that depend on such a package
// outside the standard library (go vet cannot build either kind here). A
// package with tests is checked as its test variant, which holds the same
// files and its _test.go files.
func check(dir string, target platform, patterns []string) (report, error) {
	roots, err := load(dir, target, patterns)
	if err != nil {
		return report{}, err
	}
	c := newChecker(dir, target)
	listed := map[string]bool{}
	for _, pkg := range roots {
		listed[pkg.ID] = true
	}
	for _, pkg := range roots {
		if c.usesCgo(pkg) && !listed[testVariantOf(pkg)] {
			c.targets[pkg.ID] = true
		}
	}
	var r report
	for _, pkg := range roots {
		if c.targets[pkg.ID] {
			c.typeCheck(pkg)
			r.checked = append(r.checked, pkg.ID)
		}
	}
	r.problems = c.problems
	return r, nil
}

// load lists the packages as the go command would build them for target
// with cgo on, and for the main module's, their tests ("pkg [pkg.test]" and
// "pkg_test [pkg.test]" besides pkg). It asks only for file lists and imports: anything more
// (compiled files, types) would make `go list` run cgo, which needs a
// darwin C toolchain this machine does not have.
func load(dir string, target platform, patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports |
			packages.NeedDeps | packages.NeedModule,
		Dir:   dir,
		Env:   append(os.Environ(), "GOOS="+target.goos, "GOARCH="+target.goarch, "CGO_ENABLED=1"),
		Tests: true,
	}
	listed, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("listing %s for %s: %w", strings.Join(patterns, " "), target, err)
	}
	var roots []*packages.Package
	for _, pkg := range listed {
		if err := unloadable(pkg); err != nil {
			return nil, fmt.Errorf("loading %s for %s: %w", pkg.PkgPath, target, err)
		}
		if !isTestMain(pkg) && (pkg.ID == pkg.PkgPath || inMainModule(pkg)) {
			roots = append(roots, pkg)
		}
	}
	return roots, nil
}

// testVariantOf is the ID go/packages gives pkg compiled for its tests, or
// "" when pkg is such a variant already.
func testVariantOf(pkg *packages.Package) string {
	if pkg.ID != pkg.PkgPath {
		return ""
	}
	return pkg.PkgPath + " [" + pkg.PkgPath + ".test]"
}

func inMainModule(pkg *packages.Package) bool {
	return pkg.Module != nil && pkg.Module.Main
}

// isTestMain reports the go command's generated main of a test binary,
// whose source lives in its cache and holds nothing of ours.
func isTestMain(pkg *packages.Package) bool {
	return pkg.Name == "main" && strings.HasSuffix(pkg.ID, ".test")
}

// unloadable reports a root that the go command could not find at all. A
// package none of whose files is for darwin is not an error: it has no
// darwin cgo code to check.
func unloadable(pkg *packages.Package) error {
	if len(pkg.GoFiles) > 0 || len(pkg.Errors) == 0 {
		return nil
	}
	if strings.Contains(pkg.Errors[0].Msg, "build constraints exclude all Go files") {
		return nil
	}
	return errors.New(pkg.Errors[0].Msg)
}

// checker type-checks packages from source, each once, dependencies first
// (through the importer), recording every error it meets.
type checker struct {
	dir      string
	target   platform
	fset     *token.FileSet
	targets  map[string]bool // package IDs whose function bodies are checked too
	cgo      map[string]bool // package ID: uses cgo, itself or through a dependency
	parsed   map[string][]*ast.File
	done     map[string]*types.Package
	problems []string
	reported map[string]bool // problems, each once: a package and its test variant share files
}

func newChecker(dir string, target platform) *checker {
	return &checker{
		dir:      dir,
		target:   target,
		fset:     token.NewFileSet(),
		targets:  map[string]bool{},
		cgo:      map[string]bool{},
		parsed:   map[string][]*ast.File{},
		done:     map[string]*types.Package{},
		reported: map[string]bool{},
	}
}

// report records a problem unless it was recorded already.
func (c *checker) report(problem string) {
	if !c.reported[problem] {
		c.reported[problem] = true
		c.problems = append(c.problems, problem)
	}
}

// usesCgo reports whether pkg, or a package it depends on, has a file that
// imports "C" for the target. (The standard library's own cgo, runtime/cgo,
// comes in through the go command, never through an import.)
func (c *checker) usesCgo(pkg *packages.Package) bool {
	if uses, ok := c.cgo[pkg.ID]; ok {
		return uses
	}
	uses := c.importsC(pkg)
	for _, dep := range pkg.Imports {
		uses = c.usesCgo(dep) || uses
	}
	c.cgo[pkg.ID] = uses
	return uses
}

// importsC reports whether any of pkg's files imports "C", reading only
// their imports.
func (c *checker) importsC(pkg *packages.Package) bool {
	for _, name := range pkg.GoFiles {
		file, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			continue // typeCheck reports it if the package matters
		}
		for _, spec := range file.Imports {
			if spec.Path.Value == `"C"` {
				return true
			}
		}
	}
	return false
}

// typeCheck returns pkg's types, checking it first if needed. Dependencies
// are checked without function bodies: only their declarations matter to
// the packages that import them, and that keeps the standard library quick.
// A target is checked a second time when retypeCValues gave its C
// expressions their Go types, and only that check's errors count.
func (c *checker) typeCheck(pkg *packages.Package) *types.Package {
	if done, ok := c.done[pkg.ID]; ok {
		return done
	}
	for _, err := range pkg.Errors {
		c.report(err.Error())
	}
	files := c.files(pkg)
	var info *types.Info
	if c.targets[pkg.ID] {
		info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	}
	checked, problems := c.checkFiles(pkg, files, info)
	if info != nil && retypeCValues(files, info) {
		checked, problems = c.checkFiles(pkg, files, nil)
	}
	for _, problem := range problems {
		c.report(problem)
	}
	c.done[pkg.ID] = checked
	return checked
}

// checkFiles runs go/types over pkg's files with C faked, returning the
// package and its errors.
func (c *checker) checkFiles(pkg *packages.Package, files []*ast.File, info *types.Info) (*types.Package, []string) {
	var problems []string
	conf := types.Config{
		Importer:         importerFor(c, pkg),
		FakeImportC:      true,
		IgnoreFuncBodies: !c.targets[pkg.ID],
		Sizes:            types.SizesFor("gc", c.target.goarch),
		GoVersion:        goVersion(pkg),
		Error:            func(err error) { problems = append(problems, c.describe(err)) },
	}
	checked, _ := conf.Check(pkg.PkgPath, c.fset, files, info)
	return checked, problems
}

// importerFunc lets a function serve as a types.Importer.
type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// importerFor resolves pkg's imports through the go command's answer for
// that package (which knows vendoring and module versions), checking each
// dependency from source on first use.
func importerFor(c *checker, pkg *packages.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		dep, ok := pkg.Imports[path]
		if !ok {
			return nil, fmt.Errorf("%s is not a dependency of %s for %s", path, pkg.PkgPath, c.target)
		}
		return c.typeCheck(dep), nil
	})
}

// goVersion is the language version pkg is compiled with: its module's go
// line, or the toolchain's own for the standard library.
func goVersion(pkg *packages.Package) string {
	if pkg.Module == nil || pkg.Module.GoVersion == "" {
		return ""
	}
	return "go" + pkg.Module.GoVersion
}

// files parses pkg's Go files for the target (cgo files included), once.
func (c *checker) files(pkg *packages.Package) []*ast.File {
	if files, ok := c.parsed[pkg.ID]; ok {
		return files
	}
	var files []*ast.File
	for _, name := range pkg.GoFiles {
		file, err := parser.ParseFile(c.fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			c.report(c.relative(err.Error()))
		}
		if file != nil {
			files = append(files, file)
		}
	}
	c.parsed[pkg.ID] = files
	return files
}

// typedCallText matches how go/types prints a typedCall's function: group 1
// names the cgo helper, group 2 the type converted to.
var typedCallText = regexp.MustCompile(`\(func\((?:(\w+) )?\.\.\.any\) ([^()]+?) literal\)`)

// asWritten turns the text of a typedCall back into the call as written:
// C.GoString(...) or T(...).
func asWritten(msg string) string {
	return typedCallText.ReplaceAllStringFunc(msg, func(text string) string {
		match := typedCallText.FindStringSubmatch(text)
		if match[1] != "" {
			return "C." + match[1]
		}
		return match[2]
	})
}

// describe renders a type error as "file:line:col: message", the file
// relative to the directory checked when it lies inside it, and a
// retyped C expression T(C.f()) as written rather than as rewritten.
func (c *checker) describe(err error) string {
	var typeErr types.Error
	if !errors.As(err, &typeErr) {
		return err.Error()
	}
	pos := typeErr.Fset.Position(typeErr.Pos)
	return fmt.Sprintf("%s:%d:%d: %s", c.relative(pos.Filename), pos.Line, pos.Column, asWritten(typeErr.Msg))
}

// relative shortens an absolute path (or a message starting with one) to
// one relative to the checked directory when it lies inside it.
func (c *checker) relative(path string) string {
	base, err := filepath.Abs(c.dir)
	if err != nil {
		return path
	}
	prefix := base + string(filepath.Separator)
	if strings.HasPrefix(path, prefix) {
		return strings.TrimPrefix(path, prefix)
	}
	return path
}
