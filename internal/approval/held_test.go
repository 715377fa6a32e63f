package approval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
)

// An approvals.json that others could write, or that is a link (whose
// target the sandbox does not keep unwritable), approves nothing: whoever
// wrote it would approve commands in the person's name. wisp neither reads
// nor rewrites it.
func TestUnsafeApprovalsFileApprovesNothing(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(t *testing.T, p string)
		msg  string
	}{
		{"writable by others", func(t *testing.T, p string) { writeMode(t, p, 0o666) }, "approvals.json is writable by others (mode 0666)"},
		{"writable by its group", func(t *testing.T, p string) { writeMode(t, p, 0o620) }, "approvals.json is writable by its group (mode 0620)"},
		{"a link", func(t *testing.T, p string) {
			target := filepath.Join(t.TempDir(), "approvals.json")
			writeMode(t, target, 0o600)
			os.Symlink(target, p)
		}, "approvals.json is a symbolic link (to "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := config.Home{Dir: t.TempDir()}
			p := home.ApprovalsFile()
			tt.make(t, p)
			held := NewHeld(home)
			scope, err := held.Covers("rm -rf /", "/proj")
			var unsafe *config.UnsafeError
			if !errors.As(err, &unsafe) || scope != "" || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Covers = %q, %v; want nothing held and %q", scope, err, tt.msg)
			}
			before, _ := os.ReadFile(p)
			if err := held.Keep("ls", "/proj", Always); !errors.As(err, &unsafe) {
				t.Errorf("Keep over it = %v, want the refusal", err)
			}
			if after, _ := os.ReadFile(p); string(after) != string(before) {
				t.Errorf("approvals.json was rewritten: %s", after)
			}
			if _, err := held.List(); !errors.As(err, &unsafe) {
				t.Errorf("List = %v, want the refusal", err)
			}
		})
	}
}

func writeMode(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(`{"version": 1, "always": ["rm -rf /"]}`), mode); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, mode)
}
