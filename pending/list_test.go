//go:build unix

package pending

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A face lists every valid waiting request, newest first, and never lists
// a hostile or malformed file as approvable: it is skipped, with why.
func TestListSkipsWhatItCannotTrust(t *testing.T) {
	dir := pendingDir(t)
	c := New(dir)
	clock := time.Now()
	c.Now = func() time.Time { return clock }
	older := fileHere(t, c, commandRequest)
	clock = clock.Add(time.Second)
	newer := fileHere(t, c, Request{Command: "brew upgrade", Cwd: "/p", Face: FaceChat, OutsideSandbox: true})

	valid, _ := os.ReadFile(older.File)
	const fake = "aaaaaaaaaaaaaaaa"
	os.Symlink(older.File, filepath.Join(dir, requestName("bbbbbbbbbbbbbbbb")))
	plant(t, dir, requestName(fake), valid, nil) // holds another id than its name
	plant(t, dir, requestName("cccccccccccccccc"), []byte(`{"version": 1`), nil)
	plant(t, dir, "notes.txt", []byte("hi"), nil)
	plant(t, dir, ".tmp-in-progress", []byte("{"), nil) // a write in progress: not even skipped
	if os.Geteuid() == 0 {
		plant(t, dir, requestName("dddddddddddddddd"), valid, func(p string) { os.Chown(p, 65534, 65534) })
	}

	l, err := c.Scan()
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ps []Pending) (out []string) {
		for _, p := range ps {
			out = append(out, p.Request.ID)
		}
		return out
	}
	if got := ids(l.Pending); !slices.Equal(got, []string{newer.Request.ID, older.Request.ID}) {
		t.Errorf("listed %q, want the two filed, newest first", got)
	}
	want := map[string]error{
		requestName("bbbbbbbbbbbbbbbb"): ErrSymlink, requestName(fake): ErrMalformed,
		requestName("cccccccccccccccc"): ErrMalformed, "notes.txt": nil,
	}
	if os.Geteuid() == 0 {
		want[requestName("dddddddddddddddd")] = ErrForeignOwner
	}
	for _, s := range l.Skipped {
		w, ok := want[filepath.Base(s.File)]
		if !ok || (w != nil && !errors.Is(s.Reason, w)) {
			t.Errorf("skipped %s: %v", s.File, s.Reason)
		}
		delete(want, filepath.Base(s.File))
	}
	if len(want) != 0 {
		t.Errorf("not skipped: %v", want)
	}
	for _, p := range l.Pending {
		if p.Binding != Binding(p.Bytes) || p.File != c.requestPath(p.Request.ID) {
			t.Errorf("listed %s with binding %s for its bytes", p.File, p.Binding)
		}
	}
}

// An answer with no request beside it is removed by a face's scan.
func TestListRemovesAnswersWithoutARequest(t *testing.T) {
	dir := pendingDir(t)
	plant(t, dir, answerName("0123456789abcdef"), answerJSON(t, validAnswer("0123456789abcdef", Binding(nil))), nil)
	if l, err := New(dir).Scan(); err != nil || len(l.Pending)+len(l.Skipped) != 0 {
		t.Errorf("Scan = %+v, %v", l, err)
	}
	assertEmpty(t, dir)
}

// An expired request is skipped; its requester removes it.
func TestListSkipsExpiredRequests(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, commandRequest)
	later := New(c.Dir, WithClock(func() time.Time { return f.Request.ExpiresAt }))
	l, err := later.Scan()
	if err != nil || len(l.Pending) != 0 || len(l.Skipped) != 1 || !errors.Is(l.Skipped[0].Reason, ErrExpired) {
		t.Errorf("Scan at expiry = %+v, %v", l, err)
	}
	if _, err := later.Get(f.Request.ID); !errors.Is(err, ErrGone) {
		t.Errorf("Get at expiry = %v, want ErrGone", err)
	}
}

func TestAMissingFolderHoldsNothing(t *testing.T) {
	l, err := New(filepath.Join(t.TempDir(), "none")).Scan()
	if err != nil || len(l.Pending)+len(l.Skipped) != 0 {
		t.Errorf("Scan = %+v, %v", l, err)
	}
}
