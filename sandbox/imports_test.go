package sandbox_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps the package below every face and off the network: it
// imports the standard library (but net/http), go-landlock and x/sys only.
// The helper is linked into wisp and starts before every command, so what
// it imports is what it costs.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
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
	}
	return !strings.Contains(strings.Split(path, "/")[0], ".") // the standard library
}
