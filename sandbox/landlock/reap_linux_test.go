package landlock_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// The helper that stays as the command's parent shares the command's
// Landlock domain, so every one of its threads must be as confined as the
// command: no_new_privs and the seccomp filter on each, and undumpable. The
// command reads it from its parent's /proc entries (the init of its PID
// namespace, 1, where there is one).
func TestSupervisingHelperConfinesEveryThread(t *testing.T) {
	exe := testExecutable(t)
	line := `p=$PPID; for t in /proc/$p/task/*; do grep -h -E '^(NoNewPrivs|Seccomp):' $t/status; done; echo parent=$p`
	for _, ns := range []sandbox.Namespace{sandbox.NamespaceMount, sandbox.NamespaceUser, sandbox.NamespaceNone} {
		t.Run(string(ns), func(t *testing.T) {
			if ns == sandbox.NamespaceMount && os.Geteuid() != 0 {
				t.Skip("needs root")
			}
			l := newLandlock(t, exe, ns)
			p := newProject(t, false)
			if ns == sandbox.NamespaceNone {
				p.spec.Protected = nil
			}
			argv, attr, err := l.CommandAttr(p.spec, line)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir, cmd.SysProcAttr = p.dir, attr
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("the command failed: %v\n%s", err, out)
			}
			text := string(out)
			if want := map[bool]string{true: "parent=1", false: "parent="}[ns != sandbox.NamespaceNone]; !strings.Contains(text, want) {
				t.Errorf("the command's parent: want %q in\n%s", want, text)
			}
			threads := strings.Count(text, "NoNewPrivs:")
			if threads < 2 {
				t.Fatalf("the helper's threads were not found:\n%s", text)
			}
			if n := strings.Count(text, "NoNewPrivs:\t1"); n != threads {
				t.Errorf("%d of the helper's %d threads lack no_new_privs:\n%s", threads-n, threads, text)
			}
			if n := strings.Count(text, "Seccomp:\t2"); n != threads {
				t.Errorf("%d of the helper's %d threads lack the seccomp filter:\n%s", threads-n, threads, text)
			}
		})
	}
}
