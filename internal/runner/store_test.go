package runner

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// storeAt returns a store in a fresh folder whose clock moves a second per
// output, so that ids sort in the order the outputs were made.
func storeAt(t testing.TB, maxBytes int64, maxFiles int) *Store {
	t.Helper()
	var mu sync.Mutex
	clock := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	return &Store{
		Dir: filepath.Join(t.TempDir(), "outputs"), FileBytes: 1 << 20, MaxBytes: maxBytes, MaxFiles: maxFiles,
		Now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			clock = clock.Add(time.Second)
			return clock
		},
	}
}

// keep writes one output of size bytes and returns its id.
func keep(t testing.TB, s *Store, size int) string {
	t.Helper()
	id, w, err := s.Create()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat([]byte("x"), size)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("closing output %s: %v", id, err)
	}
	return id
}

// onDisk lists the outputs in the store's folder, oldest first, and their
// total size.
func onDisk(t testing.TB, s *Store) (ids []string, total int64) {
	t.Helper()
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".log"); ok {
			info, _ := e.Info()
			ids, total = append(ids, id), total+info.Size()
		}
	}
	sort.Strings(ids)
	return ids, total
}

func ledger(t testing.TB, s *Store) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Dir, usageFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkLedger asserts that the ledger counts what is on disk.
func checkLedger(t testing.TB, s *Store) {
	t.Helper()
	ids, total := onDisk(t, s)
	var files, size, added int64
	if _, err := fmt.Sscanf(ledger(t, s), "%d %d %d\n", &files, &size, &added); err != nil {
		t.Fatalf("ledger %q: %v", ledger(t, s), err)
	}
	if files != int64(len(ids)) || size != total {
		t.Errorf("the ledger counts %d outputs and %d bytes; the folder holds %d and %d", files, size, len(ids), total)
	}
}

func TestStoreKeepsWithinItsBytes(t *testing.T) {
	s := storeAt(t, 10<<10, 0)
	var made []string
	for range 12 {
		made = append(made, keep(t, s, 3<<10))
	}
	ids, total := onDisk(t, s)
	if total > s.MaxBytes {
		t.Errorf("the store holds %d bytes, over its cap of %d", total, s.MaxBytes)
	}
	if want := made[len(made)-len(ids):]; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("kept %v, want the newest %v", ids, want)
	}
	if len(ids) != 3 {
		t.Errorf("kept %d outputs of 3 KiB under a 10 KiB cap, want 3", len(ids))
	}
	checkLedger(t, s)
}

// Commands that print nothing leave empty outputs, which no byte cap would
// ever prune.
func TestStoreKeepsWithinItsCount(t *testing.T) {
	s := storeAt(t, 1<<30, 5)
	var made []string
	for range 12 {
		made = append(made, keep(t, s, 0))
	}
	ids, _ := onDisk(t, s)
	if strings.Join(ids, " ") != strings.Join(made[7:], " ") {
		t.Errorf("kept %v, want the newest five %v", ids, made[7:])
	}
	checkLedger(t, s)
}

func TestStoreKeepsTheNewestEvenOverItsCap(t *testing.T) {
	s := storeAt(t, 1<<10, 0)
	keep(t, s, 512)
	newest := keep(t, s, 4<<10)
	if ids, _ := onDisk(t, s); len(ids) != 1 || ids[0] != newest {
		t.Errorf("kept %v, want only the newest %s", ids, newest)
	}
}

// The files are the truth: a ledger that is missing, unreadable or behind
// (a wisp that died before adding its output) is rebuilt from them.
func TestStoreLedgerIsRebuiltFromTheFiles(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, s *Store)
	}{
		{"missing", func(t *testing.T, s *Store) { os.Remove(filepath.Join(s.Dir, usageFile)) }},
		{"not numbers", func(t *testing.T, s *Store) { os.WriteFile(filepath.Join(s.Dir, usageFile), []byte("a b c\n"), 0o600) }},
		{"cut short", func(t *testing.T, s *Store) { os.WriteFile(filepath.Join(s.Dir, usageFile), []byte("3 300"), 0o600) }},
		{"negative", func(t *testing.T, s *Store) {
			os.WriteFile(filepath.Join(s.Dir, usageFile), []byte("-9 -9 0\n"), 0o600)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := storeAt(t, 8<<10, 0)
			keep(t, s, 1<<10)
			// Outputs the ledger never heard of, past the cap.
			for i := range 20 {
				name := filepath.Join(s.Dir, fmt.Sprintf("20261128T0000%02d-00000000.log", i))
				os.WriteFile(name, bytes.Repeat([]byte("y"), 1<<10), 0o600)
			}
			tt.damage(t, s)
			keep(t, s, 1<<10)
			if _, total := onDisk(t, s); total > s.MaxBytes {
				t.Errorf("the store holds %d bytes, over its cap of %d", total, s.MaxBytes)
			}
			checkLedger(t, s)
		})
	}
}

// An output the ledger missed is counted within RescanEvery outputs, and
// the caps hold from then on.
func TestStoreLedgerCatchesUpWithMissedOutputs(t *testing.T) {
	s := storeAt(t, 64<<10, 0)
	keep(t, s, 0)
	for i := range 40 {
		name := filepath.Join(s.Dir, fmt.Sprintf("20261128T0000%02d-00000000.log", i))
		os.WriteFile(name, bytes.Repeat([]byte("y"), 2<<10), 0o600)
	}
	for range RescanEvery {
		keep(t, s, 0)
	}
	if _, total := onDisk(t, s); total > s.MaxBytes {
		t.Errorf("after %d more outputs the store holds %d bytes, over its cap of %d", RescanEvery, total, s.MaxBytes)
	}
	checkLedger(t, s)
}

// Many wisps adding at once lose no count: the ledger ends equal to the
// folder and the caps hold.
func TestStoreLedgerUnderConcurrentWriters(t *testing.T) {
	s := storeAt(t, 40<<10, 30)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				keep(t, s, 1<<10)
			}
		}()
	}
	wg.Wait()
	ids, total := onDisk(t, s)
	if total > s.MaxBytes || len(ids) > 30 {
		t.Errorf("the store holds %d outputs and %d bytes, over its caps (30, %d)", len(ids), total, s.MaxBytes)
	}
	checkLedger(t, s)
}

// TestStorePrunesBelowItsCap: a store at its cap prunes a tenth below it,
// so the commands after do not each list the whole folder again.
func TestStorePrunesBelowItsCap(t *testing.T) {
	s := storeAt(t, 1<<30, 30)
	var made []string
	for range 31 {
		made = append(made, keep(t, s, 0))
	}
	ids, _ := onDisk(t, s)
	if strings.Join(ids, " ") != strings.Join(made[4:], " ") {
		t.Fatalf("over a cap of 30, kept %d outputs; want the newest 27", len(ids))
	}
	for range 3 {
		made = append(made, keep(t, s, 0))
	}
	if ids, _ := onDisk(t, s); len(ids) != 30 || ids[0] != made[4] {
		t.Errorf("three outputs after the prune, kept %d from %s; want 30, none pruned again", len(ids), ids[0])
	}
	checkLedger(t, s)
}

// TestStoreLeavesAnOutputBeingWritten: the oldest output, still being
// written (a long command), is neither pruned from under its writer nor
// counted twice once it is done.
func TestStoreLeavesAnOutputBeingWritten(t *testing.T) {
	s := storeAt(t, 1<<30, 5)
	id, w, err := s.Create()
	if err != nil {
		t.Fatal(err)
	}
	for range 12 {
		keep(t, s, 10)
	}
	if _, err := os.Stat(s.path(id)); err != nil {
		t.Fatalf("the output being written was pruned: %v", err)
	}
	if _, err := w.Write([]byte("done\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(); err != nil { // rebuilt from the files: what they hold now
		t.Fatal(err)
	}
	checkLedger(t, s)
	keep(t, s, 10)
	checkLedger(t, s)
}

func TestStoreLedgerIsNotALink(t *testing.T) {
	s := storeAt(t, 1<<20, 0)
	keep(t, s, 10)
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte("keep me\n"), 0o600)
	ledgerPath := filepath.Join(s.Dir, usageFile)
	os.Remove(ledgerPath)
	if err := os.Symlink(target, ledgerPath); err != nil {
		t.Fatal(err)
	}
	// Refused before any output is made, so no command runs unrecorded.
	if _, _, err := s.Create(); err == nil || !strings.Contains(err.Error(), "ledger") {
		t.Errorf("making an output with the ledger a symbolic link: %v, want an error naming the ledger", err)
	}
	if ids, _ := onDisk(t, s); len(ids) != 1 {
		t.Errorf("the store holds %d outputs, want the 1 from before the link", len(ids))
	}
	if data, _ := os.ReadFile(target); string(data) != "keep me\n" {
		t.Errorf("the link's target was written through: %q", data)
	}
}

// BenchmarkStoreOutput is the store's cost per command with 1,000 outputs
// kept, against BenchmarkStoreRescan, what every command paid before the
// ledger: listing and measuring them all.
func BenchmarkStoreOutput(b *testing.B) {
	s := fullStore(b)
	for b.Loop() {
		keep(b, s, 0)
	}
}

// BenchmarkStoreOutputAtCap is the same with the store at its cap of
// 1,000 outputs, as a person's is after a thousand commands: it prunes a
// tenth below the cap, once in a hundred commands.
func BenchmarkStoreOutputAtCap(b *testing.B) {
	s := storeAt(b, 1<<40, DefaultMaxFiles)
	for range DefaultMaxFiles {
		keep(b, s, 100)
	}
	for b.Loop() {
		keep(b, s, 0)
	}
}

func BenchmarkStoreRescan(b *testing.B) {
	s := fullStore(b)
	for b.Loop() {
		s.prune()
	}
}

func fullStore(b *testing.B) *Store {
	s := storeAt(b, 1<<40, 1<<20)
	for range 1000 {
		keep(b, s, 100)
	}
	return s
}

// FuzzValidID: ValidID accepts exactly what the ids' pattern matches.
func FuzzValidID(f *testing.F) {
	for _, s := range []string{NewID(time.Now()), "20261128T000000-00000000", "20261128T000000-0000000g",
		"20261128T000000-ABCDEF00", "20261128x000000-00000000", "2026112T8000000-00000000", "", "../../etc/passwd"} {
		f.Add(s)
	}
	pattern := regexp.MustCompile(`^[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$`)
	f.Fuzz(func(t *testing.T, s string) {
		if ValidID(s) != pattern.MatchString(s) {
			t.Fatalf("ValidID(%q) = %v, the pattern says %v", s, ValidID(s), pattern.MatchString(s))
		}
	})
}
