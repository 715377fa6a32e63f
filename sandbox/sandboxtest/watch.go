package sandboxtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// secretsWatched (issue 26, item 4): a confined command that watches a
// secret folder and the key in it (inotify) sees nothing of the person's
// use of them, neither the key read nor a new key's name, where a mount
// namespace covers the folder; where none can be had, it sees both, as
// the report and docs/trust.md say. Unconfined, the same watch sees both
// (the control).
func (s *suite) secretsWatched(t *testing.T) {
	s.t = t
	if runtime.GOOS != "linux" {
		t.Skip("inotify is Linux's; macOS's FSEvents is untried (docs/trust.md)")
	}
	p := s.newPerson("watched")
	ssh := filepath.Join(p.home, ".ssh")
	key := filepath.Join(ssh, "id_ed25519")
	control := s.watchWhileUsed(t, ssh, key, "control", s.plain)
	if !strings.Contains(control, "id_ed25519") || !strings.Contains(control, "id_control") {
		t.Fatalf("control: unconfined, the watch saw neither the key read nor the new key, so the case proves nothing:\n%s", control)
	}
	out := s.watchWhileUsed(t, ssh, key, "confined", func(line string) (string, int) { return s.confined(p.spec, line) })
	seen := strings.Contains(out, "id_ed25519") || strings.Contains(out, "id_confined")
	switch {
	case s.o.NoReadOnlyView && !seen:
		t.Errorf("the backend reports no read-only view, so the watch should see the key used, as the report says, but saw:\n%s", out)
	case s.o.NoReadOnlyView:
		t.Logf("no mount namespace here: a watch on a secret folder sees it used, as the report says")
	case seen:
		t.Errorf("a confined watch on %s saw the person use the secrets:\n%s", ssh, out)
	}
}

// watchWhileUsed runs the watch probe with run, and while it watches
// reads the key and makes a new key (id_NAME) as the person would,
// outside the sandbox; it returns what the watch printed.
func (s *suite) watchWhileUsed(t *testing.T, ssh, key, name string, run func(string) (string, int)) string {
	t.Helper()
	ready := filepath.Join(s.proj, "watch-"+name+".ready")
	done := filepath.Join(s.proj, "watch-"+name+".done")
	used := make(chan error, 1)
	go func() { used <- useWhenReady(ready, done, key, filepath.Join(ssh, "id_"+name)) }()
	out, code := run(s.probe("watch", ready, done, ssh, key))
	if err := <-used; err != nil {
		t.Fatalf("the person's use of the key while %s watched: %v (the watch said, status %d:\n%s)", name, err, code, out)
	}
	return out
}

// useWhenReady waits for the watch to say it is watching, then reads key
// and writes fresh, and says it is done.
func useWhenReady(ready, done, key, fresh string) error {
	defer os.WriteFile(done, nil, 0o644)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the watch never said it was watching (%s)", ready)
		}
	}
	if _, err := os.ReadFile(key); err != nil {
		return err
	}
	return os.WriteFile(fresh, []byte(secretValue+"\n"), 0o600)
}
