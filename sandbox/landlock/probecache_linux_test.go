package landlock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
)

func cachedLandlock(t *testing.T, file string) *Landlock {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLandlock(exe, sandbox.NamespaceAuto)
	testenv.NeedKernel(t, err == nil, "Landlock is not available here")
	l.CacheProbeIn(file)
	return l
}

func readProbeRecord(t *testing.T, file string) probeRecord {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the probe's answer was not remembered: %v", err)
	}
	var rec probeRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("the remembered answer is not JSON: %v\n%s", err, data)
	}
	return rec
}

func writeProbeRecord(t *testing.T, file string, rec probeRecord) {
	t.Helper()
	data, _ := json.Marshal(rec)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The second wisp process takes the first one's answer instead of starting
// the helper again: a forged answer with the right fingerprint is believed,
// which no probe here would give.
func TestProbeCacheIsRememberedAndUsed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache", "sandbox-probe.json")
	first := cachedLandlock(t, file)
	probed, _ := first.Namespace()

	rec := readProbeRecord(t, file)
	if rec.Namespace != probed {
		t.Fatalf("remembered %q, the probe found %q", rec.Namespace, probed)
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the record's mode is %v (%v), want 0600", info.Mode().Perm(), err)
	}
	if info, err := os.Stat(filepath.Dir(file)); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("the cache folder's mode is %v (%v), want 0700", info.Mode().Perm(), err)
	}

	forged := sandbox.NamespaceUser
	if probed == sandbox.NamespaceUser {
		forged = sandbox.NamespaceMount
	}
	rec.Namespace, rec.Why = forged, ""
	writeProbeRecord(t, file, rec)
	second := cachedLandlock(t, file)
	if got, _ := second.Namespace(); got != forged {
		t.Fatalf("the second backend probed again (%q) instead of taking the remembered %q", got, forged)
	}
}

// A record wisp did not write, or that no longer fits this process, is
// never believed: the probe runs and its answer replaces the record.
func TestProbeCacheIgnoresWhatItCannotTrust(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fingerprint, err := probeFingerprint(exe)
	if err != nil {
		t.Fatal(err)
	}
	good := func() probeRecord { return probeRecord{Fingerprint: fingerprint, Namespace: sandbox.NamespaceMount} }
	tests := []struct {
		name  string
		write func(t *testing.T, file string)
		root  bool
	}{
		{"another fingerprint", func(t *testing.T, file string) {
			rec := good()
			rec.Fingerprint = strings.Repeat("0", 64)
			writeProbeRecord(t, file, rec)
		}, false},
		{"not JSON", func(t *testing.T, file string) { os.WriteFile(file, []byte("{mount"), 0o600) }, false},
		{"an unknown field", func(t *testing.T, file string) {
			os.WriteFile(file, []byte(`{"fingerprint":"`+fingerprint+`","namespace":"mount","trusted":true}`), 0o600)
		}, false},
		{"an unknown namespace", func(t *testing.T, file string) {
			rec := good()
			rec.Namespace = "host"
			writeProbeRecord(t, file, rec)
		}, false},
		{"none without a reason", func(t *testing.T, file string) {
			rec := good()
			rec.Namespace = sandbox.NamespaceNone
			writeProbeRecord(t, file, rec)
		}, false},
		{"too large", func(t *testing.T, file string) {
			rec := good()
			rec.Why = strings.Repeat("x", maxProbeRecord)
			writeProbeRecord(t, file, rec)
		}, false},
		{"a symbolic link to a good record", func(t *testing.T, file string) {
			target := file + ".target"
			writeProbeRecord(t, target, good())
			if err := os.Symlink(target, file); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a folder", func(t *testing.T, file string) { os.Mkdir(file, 0o700) }, false},
		{"another owner", func(t *testing.T, file string) {
			writeProbeRecord(t, file, good())
			if err := os.Chown(file, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root && os.Geteuid() != 0 {
				t.Skip("giving a file to another owner needs root")
			}
			file := filepath.Join(t.TempDir(), "sandbox-probe.json")
			tt.write(t, file)
			if ns, why, ok := cachedProbe(file, fingerprint); ok {
				t.Fatalf("believed %q (%q)", ns, why)
			}
		})
	}
	// The good record itself is believed, so the cases above fail for the
	// reason they name.
	file := filepath.Join(t.TempDir(), "sandbox-probe.json")
	writeProbeRecord(t, file, good())
	if ns, _, ok := cachedProbe(file, fingerprint); !ok || ns != sandbox.NamespaceMount {
		t.Fatalf("a good record was not believed: %q %v", ns, ok)
	}
}

// A stale record is replaced by the probe's own answer.
func TestProbeCacheReplacesAStaleRecord(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sandbox-probe.json")
	writeProbeRecord(t, file, probeRecord{Fingerprint: "stale", Namespace: sandbox.NamespaceUser})
	l := cachedLandlock(t, file)
	probed, _ := l.Namespace()
	rec := readProbeRecord(t, file)
	if rec.Fingerprint == "stale" || rec.Namespace != probed {
		t.Fatalf("the stale record was kept: %+v (the probe found %q)", rec, probed)
	}
}

// The fingerprint follows the helper executable: a rebuilt wisp probes
// again.
func TestProbeFingerprintFollowsTheExecutable(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "wisp")
	if err := os.WriteFile(exe, []byte("one"), 0o700); err != nil {
		t.Fatal(err)
	}
	first, err := probeFingerprint(exe)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := probeFingerprint(exe); again != first {
		t.Fatal("the fingerprint changed with nothing changed")
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if changed, _ := probeFingerprint(exe); changed == first {
		t.Fatal("the fingerprint did not change with the executable")
	}
}

// Only an answer the helper gave is remembered: a probe that failed some
// other way says so, and is asked again next time.
func TestProbeHelperSaysWhenItsAnswerIsDefinite(t *testing.T) {
	for _, exe := range []string{"/bin/false", "/bin/sh"} {
		ns, why, definite := probeHelper(exe)
		if ns != sandbox.NamespaceNone || why == "" || definite {
			t.Errorf("%s as the helper: %q, %q, definite %v; want none, a reason, not definite", exe, ns, why, definite)
		}
	}
}
