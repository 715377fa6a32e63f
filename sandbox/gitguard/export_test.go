package gitguard

import (
	"os"
	"path/filepath"
	"testing"
)

// The names the package's external tests (package gitguard_test, which
// builds specs with package sandbox) need from inside.
var (
	DescribePutBacks = describePutBacks
	IsDir            = isDir
	QuoteGitValue    = quoteGitValue
	WriteFile        = writeFile
	ErrNotRegular    = errNotRegular
)

func writeFile(t *testing.T, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// MaxControlFile is the largest control file the guard reads.
const MaxControlFile = maxControlFile
