package sandbox_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps the front and sandbox/landlock, the Linux backend,
// below every face and off the network: they import the standard library
// (but net/http), go-landlock and x/sys only. The helper is linked into
// wisp and starts before every command, so what it imports is what it
// costs.
func TestImports(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "landlock/*.go"} {
		matched, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matched...)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedImport(path) {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
	if _, err := os.Stat("doc.go"); err != nil {
		t.Fatal("run from the package folder")
	}
}

func allowedImport(path string) bool {
	switch {
	case path == "net/http" || strings.HasPrefix(path, "net/"):
		return false
	case strings.HasPrefix(path, "github.com/landlock-lsm/go-landlock/"), strings.HasPrefix(path, "golang.org/x/sys/"):
		return true
	case path == "github.com/wisp-sh/wisp/sandbox", path == "github.com/wisp-sh/wisp/sandbox/gitguard", path == "github.com/wisp-sh/wisp/sandbox/internal/paths":
		return true // the front (for the backend) and the sandbox's own parts, split out of this package
	}
	return !strings.Contains(strings.Split(path, "/")[0], ".") // the standard library
}

// TestHelperExecutableLean keeps wisp-sandbox, which starts before every
// confined command, to what confining needs: every package it links runs
// its initialisers at each start, so none of wisp's faces, the model
// client, the MCP SDK, gob or D-Bus may creep in through an import.
func TestHelperExecutableLean(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to list the helper's packages: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/wisp-sh/wisp/cmd/wisp-sandbox").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if why := heavyForTheHelper(pkg); why != "" {
			t.Errorf("wisp-sandbox links %s (%s)", pkg, why)
		}
	}
}

func heavyForTheHelper(pkg string) string {
	for prefix, why := range map[string]string{
		"github.com/openai/":                      "the model client",
		"github.com/modelcontextprotocol/":        "the MCP SDK",
		"github.com/google/jsonschema-go/":        "the MCP SDK's schemas",
		"github.com/godbus/":                      "D-Bus",
		"encoding/gob":                            "gob",
		"net/http":                                "an HTTP stack",
		"github.com/spf13/":                       "the CLI",
		"mvdan.cc/sh/":                            "the shell parser",
		"github.com/charmbracelet/":               "a terminal face",
		"github.com/wisp-sh/wisp/policy":          "the policy's rules",
		"github.com/wisp-sh/wisp/internal/config": "wisp's configuration",
		"github.com/wisp-sh/wisp/internal/runner": "the runner",
		"github.com/wisp-sh/wisp/internal/":       "wisp's internals",
	} {
		if pkg == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(pkg, prefix) {
			return why
		}
	}
	return ""
}
