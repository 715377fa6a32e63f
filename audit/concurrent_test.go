package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
)

const (
	writers         = 20
	eventsPerWriter = 500
)

// TestConcurrentWriters runs 20 processes that log 500 events each into
// one home, then checks that every line is whole and every (writer, seq)
// is there exactly once, with and without rotation mid-run.
func TestConcurrentWriters(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rotateAt int64
		keep     int
	}{
		{"one file", RotateBytes, RotatedFiles},
		// ~2.3 MB in 64 KiB files: dozens of rotations, all files kept.
		{"rotating", 64 << 10, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := config.Home{Dir: filepath.Join(t.TempDir(), "home")}
			runWriters(t, home, tc.rotateAt, tc.keep)
			files := checkEveryLineWhole(t, home)
			if tc.keep > RotatedFiles && files < 10 {
				t.Errorf("the log was rotated into %d files; the test needs rotation mid-run", files)
			}
			checkEveryEventOnce(t, home)
			checkModes(t, home)
		})
	}
}

func runWriters(t *testing.T, home config.Home, rotateAt int64, keep int) {
	t.Helper()
	var cmds []*exec.Cmd
	var starts []io.Closer
	for w := range writers {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d|%d|%d|%d", writerEnv, home.Dir, w, eventsPerWriter, rotateAt, keep))
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, starts = append(cmds, cmd), append(starts, stdin)
	}
	for _, s := range starts {
		s.Close() // go
	}
	for w, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
}

// checkEveryLineWhole reads each file raw: every line must be one JSON
// object with the padding intact. It returns how many files there are.
func checkEveryLineWhole(t *testing.T, home config.Home) int {
	t.Helper()
	names, err := logNames(home.LogsDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(home.LogsDir(), name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var e seqEvent
			if err := json.Unmarshal([]byte(line), &e); err != nil || len(e.Pad) != 150 {
				t.Fatalf("%s line %d is not whole (%v): %.200q", name, i+1, err, line)
			}
		}
	}
	return len(names)
}

func checkEveryEventOnce(t *testing.T, home config.Home) {
	t.Helper()
	seen := map[[2]int]int{}
	malformed := 0
	f := Filter{OnMalformed: func(Malformed) { malformed++ }}
	err := Read(home, f, func(r Record) error {
		w, _ := r.Fields["writer"].(json.Number).Int64()
		s, _ := r.Fields["seq"].(json.Number).Int64()
		seen[[2]int{int(w), int(s)}]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if malformed != 0 {
		t.Errorf("%d malformed lines", malformed)
	}
	for w := range writers {
		for s := range eventsPerWriter {
			if n := seen[[2]int{w, s}]; n != 1 {
				t.Errorf("writer %d seq %d read %d times, want once", w, s, n)
			}
		}
	}
}

func checkModes(t *testing.T, home config.Home) {
	t.Helper()
	entries, err := os.ReadDir(home.LogsDir())
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(home.LogsDir()); info.Mode().Perm() != 0o700 {
		t.Errorf("logs dir mode %v, want 0700", info.Mode().Perm())
	}
	for _, e := range entries {
		if info, _ := e.Info(); info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
	}
}
