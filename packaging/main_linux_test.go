package packaging_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain gives the package's tests a temporary folder of their own and
// fails the run when they leave anything in it: the copy of the source
// they build (77 MB) went to /tmp and stayed there, twice a run.
func TestMain(m *testing.M) {
	os.Exit(runInOwnTemp(m))
}

// ownTempEnv marks the processes the tests start again (as the
// unprivileged user, in a restricted namespace): they use the folder of the
// run that started them, which checks it once they have all ended. (One of
// them replaces itself with exec, and would leave a folder of its own.)
const ownTempEnv = "WISP_PACKAGING_TEST_TMP"

func runInOwnTemp(m *testing.M) int {
	if os.Getenv(ownTempEnv) != "" {
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "wisp-pkg-")
	if err == nil {
		// Searchable by the unprivileged test user, whose reruns reach
		// the built tree in it.
		err = os.Chmod(tmp, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "packaging tests: a temporary folder:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	outer := os.Getenv("TMPDIR")
	os.Setenv("TMPDIR", tmp)
	os.Setenv(ownTempEnv, tmp)
	code := m.Run()
	os.Setenv("TMPDIR", outer)
	os.Unsetenv(ownTempEnv)
	if treeDir != "" {
		os.RemoveAll(filepath.Dir(treeDir))
	}
	if left := leftIn(tmp); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the packaging tests left %s in their temporary folder\n", strings.Join(left, ", "))
		return 1
	}
	return code
}

func leftIn(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
