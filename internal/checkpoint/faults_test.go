package checkpoint

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

func TestAnUnreadableFileStopsTheCheckpoint(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file: TestAsAPerson runs this as one")
	}
	for _, unreadable := range []string{"secret.txt", "private/"} {
		t.Run(unreadable, func(t *testing.T) {
			p := newProject(t, Options{})
			p.write(map[string]string{"a.txt": "a\n", "secret.txt": "s\n", "private/x.txt": "x\n"})
			path := p.path(strings.TrimSuffix(unreadable, "/"))
			chmod(t, path, 0)
			defer os.Chmod(path, 0o755)
			_, err := p.store.Take([]string{p.dir}, "before")
			var re *ReadError
			if !errors.As(err, &re) || re.Path != path || !errors.Is(err, os.ErrPermission) {
				t.Fatalf("Take = %v, want a ReadError for %s", err, path)
			}
			if list, _ := p.store.List(); len(list) != 0 {
				t.Errorf("a checkpoint was recorded without %s", path)
			}
		})
	}
}

// An unwritable folder (the person's, not the model's) stops a restore
// before it changes anything.
func TestARestoreIntoAnUnwritableFolderChangesNothing(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes every folder: TestAsAPerson runs this as one")
	}
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n", "locked/b.txt": "b\n"})
	cp := p.take("before")
	p.write(map[string]string{"a.txt": "changed\n", "locked/b.txt": "changed\n"})
	chmod(t, p.path("locked"), 0o555)
	defer os.Chmod(p.path("locked"), 0o755)
	p.refusedRestore(cp, "nothing was restored", "locked")
}

// TestAsAPerson runs every test again as the unprivileged test user:
// root changes what a restore can do (modes, owners, what can be read or
// written), and people do not run wisp as root.
func TestAsAPerson(t *testing.T) {
	r := testenv.NewRerun(t)
	r.Run(t, "^Test", nil,
		"TestUndoATurnExactlyAndRedoIt", "TestAPersonsEditSinceTheTurnIsAConflict", "TestRestoreNeverWritesThroughALink",
		"TestARestoreKilledMidwayIsFinishedByTheNextOpen", "TestARestoreKilledWhilePreparingIsRolledBack",
		"TestAnUnreadableFileStopsTheCheckpoint", "TestARestoreIntoAnUnwritableFolderChangesNothing",
		"TestARestoreNeverMakesASetIDProgram", "TestCheckpointsNeverFollowALinkOut", "TestIncrementalCheckpointsReadOnlyWhatChanged")
}
