package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKnownEntries: every known entry names a project of the suite, one of
// issue 32's items, and accounts that exist; no two entries of one project
// and account name the same item.
func TestKnownEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range known {
		if _, ok := findProject(k.Project); !ok {
			t.Errorf("known entry for %q: no such project (%s)", k.Project, projectNames())
		}
		if _, ok := itemTitles[k.Item]; !ok {
			t.Errorf("known entry for %s: issue 32 has no item %d", k.Project, k.Item)
		}
		if k.Signature == nil || k.Signature.String() == "" {
			t.Errorf("known entry for %s, item %d: no signature, so it would excuse any failure", k.Project, k.Item)
		}
		for _, a := range accountsOf(k) {
			if a != warm && a != fresh {
				t.Errorf("known entry for %s: no account %q", k.Project, a)
			}
			key := fmt.Sprint(k.Project, a, k.Item)
			if seen[key] {
				t.Errorf("known entry for %s, item %d, %s account: twice", k.Project, k.Item, a)
			}
			seen[key] = true
		}
	}
}

// TestTrustedEntries: every passage the trusted table cites is in
// docs/trust.md, word for word, under the heading its anchor names.
func TestTrustedEntries(t *testing.T) {
	doc := readTrust(t)
	for _, e := range trusted {
		if err := checkTrustEntry(doc, e); err != nil {
			t.Error(err)
		}
		if _, ok := findProject(e.Project); !ok {
			t.Errorf("trusted entry for %q: no such project", e.Project)
		}
	}
}

// TestCheckTrustEntry: the check itself, on a passage trust.md has and on
// ones it has not (the table is empty today, and must not pass unchecked
// once it is not).
func TestCheckTrustEntry(t *testing.T) {
	doc := readTrust(t)
	entry := func(anchor, sentence string) trustEntry {
		return trustEntry{Project: "go-uuid", Anchor: anchor, Sentence: sentence, Signature: regexp.MustCompile(`x`)}
	}
	if err := checkTrustEntry(doc, entry("what-a-confined-command-may-do", "Nothing is created in your project to make the sandbox work.")); err != nil {
		t.Errorf("a passage trust.md has: %v", err)
	}
	for _, bad := range []trustEntry{
		entry("what-a-confined-command-may-do", "A root that does not exist is created."),
		entry("no-such-heading", "Nothing is created in your project to make the sandbox work."),
		entry("the-command-lists", "Nothing is created in your project to make the sandbox work."),
		{Project: "go-uuid", Anchor: "what-a-confined-command-may-do", Sentence: "Nothing is created in your project to make the sandbox work."},
	} {
		if err := checkTrustEntry(doc, bad); err == nil {
			t.Errorf("checkTrustEntry accepted %+v", bad)
		}
	}
}

func readTrust(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "trust.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkTrustEntry finds e's sentence in the section of doc its anchor
// names (up to the next heading of the same or a higher level), with the
// line breaks of the Markdown as spaces.
func checkTrustEntry(doc string, e trustEntry) error {
	if e.Signature == nil {
		return fmt.Errorf("trusted entry for %s: no signature, so it would excuse any failure", e.Project)
	}
	section, ok := sectionOf(doc, e.Anchor)
	if !ok {
		return fmt.Errorf("trusted entry for %s: trust.md has no heading #%s", e.Project, e.Anchor)
	}
	if !strings.Contains(strings.Join(strings.Fields(section), " "), e.Sentence) {
		return fmt.Errorf("trusted entry for %s: trust.md#%s does not say %q", e.Project, e.Anchor, e.Sentence)
	}
	return nil
}

// sectionOf returns the text under the heading whose anchor (as GitHub
// makes it) is anchor.
func sectionOf(doc, anchor string) (string, bool) {
	lines := strings.Split(doc, "\n")
	for i, line := range lines {
		level, title := heading(line)
		if level == 0 || slug(title) != anchor {
			continue
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if l, _ := heading(lines[j]); l > 0 && l <= level {
				end = j
				break
			}
		}
		return strings.Join(lines[i+1:end], "\n"), true
	}
	return "", false
}

func heading(line string) (int, string) {
	level := len(line) - len(strings.TrimLeft(line, "#"))
	if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
		return 0, ""
	}
	return level, strings.TrimSpace(line[level:])
}

var notSlug = regexp.MustCompile(`[^\p{L}\p{N}\- ]`)

func slug(title string) string {
	return strings.ReplaceAll(notSlug.ReplaceAllString(strings.ToLower(title), ""), " ", "-")
}

// TestKnownSignaturesMatchWhatWasSeen holds each known entry to the
// failure it was written for: testdata/seen/PROJECT.ACCOUNT.txt is an
// excerpt of wisp's run of that project in that account, as the suite saw
// it before issue 32's fixes. An entry must match its own excerpt, and an
// item's signature must not match another project's excerpt, where a
// different item (or none) fails it.
func TestKnownSignaturesMatchWhatWasSeen(t *testing.T) {
	seen := map[string]string{}
	files, err := filepath.Glob(filepath.Join("testdata", "seen", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no excerpts in testdata/seen: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		seen[strings.TrimSuffix(filepath.Base(f), ".txt")] = string(data)
	}
	for _, k := range known {
		for _, a := range accountsOf(k) {
			key := k.Project + "." + string(a)
			text, ok := seen[key]
			if !ok {
				t.Errorf("known entry for %s, item %d: no excerpt testdata/seen/%s.txt of the failure it names", k.Project, k.Item, key)
				continue
			}
			if !k.Signature.MatchString(text) {
				t.Errorf("known entry for %s, item %d, %s account: %s does not match what was seen:\n%s", k.Project, k.Item, a, k.Signature, text)
			}
		}
	}
	for key, text := range seen {
		project, acct, _ := strings.Cut(key, ".")
		for _, k := range known {
			if k.Project == project || k.Signature == nil {
				continue
			}
			if applies(k, account(acct)) && k.Signature.MatchString(text) && !explainedBy(project, account(acct), k.Item) {
				t.Errorf("item %d's signature for %s (%s) matches %s's failure, which it does not explain", k.Item, k.Project, k.Signature, key)
			}
		}
	}
}

func accountsOf(k knownEntry) []account {
	if len(k.Accounts) == 0 {
		return []account{warm, fresh}
	}
	return k.Accounts
}

func applies(k knownEntry, a account) bool { return slices.Contains(accountsOf(k), a) }

// explainedBy says whether project's failure in a is, by the table, item's.
func explainedBy(project string, a account, item int) bool {
	for _, k := range known {
		if k.Project == project && k.Item == item && applies(k, a) {
			return true
		}
	}
	return false
}
