// Command darwincheck type-checks wisp's cgo code for macOS on a machine that
// has no Mac: it selects, with GOOS=darwin and cgo enabled, the packages
// whose files `import "C"` and those that depend on such a package outside
// the standard library (the ones `go vet` cannot build without a darwin C
// toolchain), and type-checks them, and their dependencies from source, with
// go/types' FakeImportC. Real type errors are reported with file and line;
// only the names under `C.` go unchecked (cvalues.go says how the values
// they produce are typed).
//
// With -vet, it also does what `GOOS=darwin go vet` does for the other
// packages of the main module, with cgo off and on: it type-checks them,
// their tests and every dependency from source and runs go vet's analyzers
// over them (vet.go). go vet would compile every dependency for darwin,
// twice; that took minutes of make check on two cores, this takes seconds.
//
// Usage:
//
//	go run ./internal/darwincheck [-goarch arm64,amd64] [-vet arm64] [packages]
//
// It exits 0 when every such package type-checks (or there is none) and
// vet finds nothing, 1 when there are type errors or vet's findings, 2 when
// the packages cannot be loaded.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], "", os.Stdout, os.Stderr))
}

// run is main without the process: dir is where the patterns are resolved
// ("" for the current directory), so tests can point it at a module.
func run(args []string, dir string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("darwincheck", flag.ContinueOnError)
	flags.SetOutput(stderr)
	goarchList := flags.String("goarch", "arm64,amd64", "comma-separated darwin architectures to check")
	vetList := flags.String("vet", "", "comma-separated darwin architectures to run go vet's analyzers for, with cgo off and on, over the packages without cgo")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	patterns := flags.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	code := 0
	for _, goarch := range strings.Split(*goarchList, ",") {
		code = max(code, checkArch(dir, goarch, patterns, stdout, stderr))
	}
	if *vetList != "" {
		for _, goarch := range strings.Split(*vetList, ",") {
			code = max(code, vetArch(dir, goarch, patterns, stdout, stderr))
		}
	}
	return code
}

// vetArch runs go vet's analyzers for darwin/goarch, with cgo off and on,
// over the packages that check leaves out, and prints what they found.
func vetArch(dir, goarch string, patterns []string, stdout, stderr io.Writer) int {
	target := platform{goos: "darwin", goarch: goarch}
	paths, err := vettable(dir, target, patterns)
	if err != nil {
		fmt.Fprintf(stderr, "darwincheck: %v\n", err)
		return 2
	}
	code := 0
	for _, cgo := range []bool{false, true} {
		problems, err := vet(dir, target, cgo, paths)
		if err != nil {
			fmt.Fprintf(stderr, "darwincheck: %v\n", err)
			return 2
		}
		if printProblems(stderr, problems, fmt.Sprintf("vet (%s): %d problem(s)", vetName(target, cgo), len(problems))) {
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "ok  go vet's analyzers, %d packages with their tests (%s, from source)\n", len(paths), vetName(target, cgo))
	}
	return code
}

// checkArch loads and checks the patterns for darwin/goarch and prints the
// outcome: one line per package checked, or every error found.
func checkArch(dir, goarch string, patterns []string, stdout, stderr io.Writer) int {
	target := platform{goos: "darwin", goarch: goarch}
	report, err := check(dir, target, patterns)
	if err != nil {
		fmt.Fprintf(stderr, "darwincheck: %v\n", err)
		return 2
	}
	if len(report.checked) == 0 {
		fmt.Fprintf(stdout, "darwincheck: no package in %s uses cgo for %s; nothing to check\n", strings.Join(patterns, " "), target)
		return 0
	}
	if printProblems(stderr, report.problems, fmt.Sprintf("%d type error(s) for %s", len(report.problems), target)) {
		return 1
	}
	for _, path := range report.checked {
		fmt.Fprintf(stdout, "ok  %s (%s, cgo faked)\n", path, target)
	}
	return 0
}

// printProblems prints each problem, then the summary, when there are any,
// and reports whether there were.
func printProblems(stderr io.Writer, problems []string, summary string) bool {
	for _, problem := range problems {
		fmt.Fprintln(stderr, problem)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "darwincheck: %s\n", summary)
	}
	return len(problems) > 0
}
