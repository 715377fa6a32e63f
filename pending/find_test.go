//go:build unix

package pending

import (
	"errors"
	"strings"
	"testing"
)

// A request filed under the id its caller chose keeps it, so the gate's
// audit events and the listing name it alike; a taken id is an error, not
// a quiet other id.
func TestFileKeepsTheCallersIDAndRefusesATakenOne(t *testing.T) {
	c := New(pendingDir(t))
	req := commandRequest
	req.ID = "abcd000000000001"
	f := fileHere(t, c, req)
	if f.Request.ID != req.ID || mustGet(t, c, req.ID).Request.ID != req.ID {
		t.Fatalf("filed as %s, not %s", f.Request.ID, req.ID)
	}
	if _, err := c.File(t.Context(), req); err == nil || !strings.Contains(err.Error(), "is taken") {
		t.Fatalf("a second request under a taken id: %v", err)
	}
	req.ID = "ABCD000000000002"
	if _, err := c.File(t.Context(), req); err == nil {
		t.Fatal("a request was filed under an id that is not lowercase hex")
	}
}

// Find takes what a person saw: a unique id prefix of at least 4
// characters, or the 8-character digest. A prefix that names several
// lists them all; one that names none is ErrNotWaiting.
func TestFindByPrefixOrDigest(t *testing.T) {
	c := New(pendingDir(t))
	file := func(id, line string) *Filed {
		req := commandRequest
		req.ID, req.Command = id, line
		return fileHere(t, c, req)
	}
	a := file("abcd000000000001", "make a")
	b := file("abcd000000000002", "make b")
	other := file("ef01000000000003", "make other")
	for _, tc := range []struct {
		ref  string
		want *Filed
	}{
		{"abcd000000000001", a}, {"abcd0000000000 02", nil}, {"ABCD000000000002", b}, {"ef01", other},
		{Digest(a.Binding), a}, {strings.ToUpper(Digest(b.Binding)), b},
	} {
		p, err := c.Find(tc.ref)
		if tc.want == nil {
			if err == nil {
				t.Errorf("Find(%q) found %s", tc.ref, p.Request.ID)
			}
			continue
		}
		if err != nil || p.Request.ID != tc.want.Request.ID || p.Binding != tc.want.Binding {
			t.Errorf("Find(%q) = %s, %v; want %s", tc.ref, p.Request.ID, err, tc.want.Request.ID)
		}
	}
	_, err := c.Find("abcd")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("Find(abcd) = %v; want both candidates", err)
	}
	for _, ref := range []string{"abc", "xyz1", "abcd0000000000011"} {
		if _, err := c.Find(ref); err == nil || errors.Is(err, ErrNotWaiting) {
			t.Errorf("Find(%q) = %v; want a refused reference", ref, err)
		}
	}
	if _, err := c.Find("9999"); !errors.Is(err, ErrNotWaiting) {
		t.Errorf("Find(9999) = %v; want ErrNotWaiting", err)
	}
}
