package checkpoint

import (
	"reflect"
	"strings"
	"testing"
)

func TestTreesRoundTripAndRefuseNamesOutsideAFolder(t *testing.T) {
	entries := []entry{
		{name: "a\nb", kind: kindFile, perm: 0o4755, size: 3, hash: hash{1}},
		{name: "caf\xe9", kind: kindSymlink, perm: 0o777, size: 5, link: "../up"},
		{name: "dir", kind: kindDir, perm: 0o700, hash: hash{2}},
	}
	got, err := decodeTree(encodeTree(entries))
	if err != nil || !reflect.DeepEqual(got, entries) {
		t.Fatalf("decodeTree(encodeTree(e)) = %+v, %v", got, err)
	}
	for _, bad := range []string{"..", ".", "a/b", "", "nul\x00"} {
		data := encodeTree([]entry{{name: bad, kind: kindFile}})
		if _, err := decodeTree(data); err == nil {
			t.Errorf("a tree naming %q was accepted", bad)
		}
	}
	unsorted := encodeTree([]entry{{name: "b", kind: kindFile}, {name: "a", kind: kindFile}})
	if _, err := decodeTree(unsorted); err == nil {
		t.Error("a tree out of order was accepted")
	}
	if _, err := decodeTree(encodeTree(entries)[:40]); err == nil {
		t.Error("a tree cut short was accepted")
	}
}

func TestJournalsRoundTripAnyName(t *testing.T) {
	j := &journal{id: "0a1b2c3d", target: 4, redo: 9, committed: true,
		keep:  []string{"/p/a b", "/p/new\nline"},
		temps: []tempFile{{root: "/p", rel: "caf\xe9/.wisp-restore-0a1b2c3d-0"}, {root: "/p q", rel: "x \"y\""}}}
	got, err := parseJournal(j.encode())
	if err != nil || !reflect.DeepEqual(got, j) {
		t.Fatalf("parseJournal(encode(j)) = %+v, %v; want %+v", got, err, j)
	}
	if _, err := parseJournal([]byte(journalMagic + "\nid x\n")); err == nil {
		t.Error("a journal cut short was accepted")
	}
}

func TestLineCounts(t *testing.T) {
	for _, tc := range []struct {
		old, cur string
		want     LineCount
	}{
		{"a\nb\nc\n", "a\nb\nc\nd\n", LineCount{Added: 1}},
		{"a\nb\nc\n", "a\nc\n", LineCount{Removed: 1}},
		{"a\nb\nc\n", "a\nB\nc\n", LineCount{Added: 1, Removed: 1}},
		{"", "x\ny\n", LineCount{Added: 2}},
		{"a\nb\n", "b\na\n", LineCount{Added: 1, Removed: 1}},
		{"no newline", "no newline\n", LineCount{Added: 1, Removed: 1}},
	} {
		got := countChangedLines(splitLines([]byte(tc.old)), splitLines([]byte(tc.cur)))
		if *got != tc.want {
			t.Errorf("lines from %q to %q: %+v, want %+v", tc.old, tc.cur, *got, tc.want)
		}
	}
	// Past the limit of the exact count, a bag of lines.
	var a, b strings.Builder
	for i := range maxEditDistance + 10 {
		a.WriteString(strings.Repeat("x", i%7) + "a\n")
		b.WriteString(strings.Repeat("y", i%5) + "b\n")
	}
	got := countChangedLines(splitLines([]byte(a.String())), splitLines([]byte(b.String())))
	n := maxEditDistance + 10
	if *got != (LineCount{Added: n, Removed: n, Approximate: true}) {
		t.Errorf("a change of every line of %d counted %+v", n, *got)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{12: "12 B", 1202: "1.2 kB", 2 << 30: "2.1 GB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
