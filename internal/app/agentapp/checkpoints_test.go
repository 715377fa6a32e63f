package agentapp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A folder that holds far more than a project (/, the home folder and the
// folders above it, the shared temporary folder, wisp's home) is never a
// checkpoint root: launched there, checkpoints are off and said; granted,
// it is left out and said.
func TestCheckpointRootsAreProjectsNotSharedFolders(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home", "ann")
	project := filepath.Join(home, "src", "app")
	wispHome := filepath.Join(home, ".wisp")
	shared := filepath.Join(base, "shared")
	for _, d := range []string{project, wispHome, shared} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	for _, tc := range []struct {
		name, launch string
		writable     []string
		want         []string
		said         string
	}{
		{"a project", project, nil, []string{project}, ""},
		{"a project and a granted folder", project, []string{shared, "~/src/app"}, []string{project, shared}, ""},
		{"the home folder", home, nil, nil, "is your home folder, not a project folder"},
		{"above the home folder", filepath.Dir(home), nil, nil, "is a folder that holds your home folder"},
		{"the disk", "/", nil, nil, "is the root of the disk"},
		{"the temporary folder", tmp, nil, nil, "is the temporary folder everyone shares"},
		{"wisp's home", wispHome, nil, nil, "is wisp's own home"},
		{"the home folder granted", project, []string{"~/", shared}, []string{project, shared}, "checkpoints leave out " + home + " (your home folder)"},
		{"the temporary folder granted", project, []string{tmp}, []string{project}, tmp + " (the temporary folder everyone shares)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roots, err := CheckpointRoots(tc.launch, tc.writable, home, wispHome)
			if !slices.Equal(roots, tc.want) {
				t.Errorf("roots %q, want %q", roots, tc.want)
			}
			switch {
			case tc.said == "" && err != nil:
				t.Errorf("said %q, want nothing", err)
			case tc.said != "" && (err == nil || !strings.Contains(err.Error(), tc.said)):
				t.Errorf("said %v, want %q", err, tc.said)
			case tc.want == nil && !strings.Contains(err.Error(), "start wisp in a project's folder"):
				t.Errorf("%q does not say what to do", err)
			}
		})
	}
}
