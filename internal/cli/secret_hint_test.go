package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// Started in a folder that holds a secret (the home with its ~/.ssh), wisp
// says in one sentence where it will not start and what to do, and the
// hint under it says how, whatever wraps the sandbox's error.
func TestStartedAroundASecret(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: home, WispHome: filepath.Join(home, ".wisp"), UserHome: home,
		Getenv: func(string) string { return "" }})
	err = fmt.Errorf("chat: %w", err)
	want := "chat: sandbox: wisp will not start in " + home + ": it holds the secret " + home + "/.ssh, and in the writable root " +
		home + " a command could rename it and read it; start wisp in a project folder instead"
	if err.Error() != want {
		t.Errorf("the error reads\n%s\nwant\n%s", err, want)
	}
	if h := strings.Join(hintsFor(err), "\n"); !strings.HasPrefix(h, "cd into a project folder and start wisp there (wisp mcp takes --dir PROJECT)") {
		t.Errorf("the hint reads %q", h)
	}
	if hintsFor(errors.New("plain")) != nil {
		t.Error("a hint from an error that has none")
	}
}
