package gitguard

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseGitConfig(t *testing.T) {
	src := "# comment\n[core]fsmonitor = a\n[Remote \"Or\\\"ig\"]\n\turl = \"x y\" ; c\n" +
		"[alias.St]\n\tst = !sh -c \\\n  'evil'\n[user]\r\n\tname = n # c\r\n\tbare\n"
	got, err := parseGitConfig([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"core.fsmonitor=a", `remote.Or"ig.url=x y`, "alias.st.st=!sh -c   'evil'", "user.name=n", "user.bare"}
	var names []string
	for _, e := range got {
		n := e.name()
		if e.hasValue {
			n += "=" + e.value
		}
		names = append(names, n)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("parsed %q\nwant   %q", names, want)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	file := filepath.Join(t.TempDir(), "config")
	writeFile(t, file, src, 0o644)
	out, err := exec.Command("git", "config", "--file", file, "--list").Output()
	if err != nil {
		t.Fatalf("git config --list: %v", err)
	}
	gitSays := strings.Split(strings.TrimSpace(string(out)), "\n")
	wantGit := []string{"core.fsmonitor=a", `remote.Or"ig.url=x y`, "alias.st.st=!sh -c   'evil'", "user.name=n", "user.bare"}
	if !slices.Equal(gitSays, wantGit) {
		t.Fatalf("git reads %q\nwant      %q", gitSays, wantGit)
	}
}

// TestFormatGitConfigIsWhatGitReads: what wisp writes back, git reads as
// the same settings (git itself is the judge).
func TestFormatGitConfigIsWhatGitReads(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	entries := []gitEntry{
		{section: "core", key: "bare", value: "false", hasValue: true},
		{section: "remote", subsection: `we"ird\sub`, key: "url", value: "a \"b\" \\c\td", hasValue: true},
		{section: "branch", subsection: "main", key: "merge", value: "refs/heads/main ; # not a comment", hasValue: true},
	}
	file := filepath.Join(t.TempDir(), "config")
	writeFile(t, file, string(formatGitConfig(entries)), 0o644)
	out, err := exec.Command("git", "config", "--file", file, "--list", "-z").Output()
	if err != nil {
		t.Fatalf("git config --list: %v", err)
	}
	var got []string
	for _, kv := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		got = append(got, strings.Replace(kv, "\n", "=", 1))
	}
	want := []string{"core.bare=false", `remote.we"ird\sub.url=a "b" \c` + "\td", "branch.main.merge=refs/heads/main ; # not a comment"}
	if !slices.Equal(got, want) {
		t.Fatalf("git reads %q\nwant      %q", got, want)
	}
}

func TestGitConfigSafe(t *testing.T) {
	for _, tc := range []struct {
		e    gitEntry
		safe bool
	}{
		{gitEntry{section: "core", key: "repositoryformatversion", value: "0", hasValue: true}, true},
		{gitEntry{section: "remote", subsection: "origin", key: "url", value: "/x", hasValue: true}, true},
		{gitEntry{section: "submodule", subsection: "lib", key: "update", value: "checkout", hasValue: true}, true},
		{gitEntry{section: "submodule", subsection: "lib", key: "update", value: "!sh evil", hasValue: true}, false},
		{gitEntry{section: "core", key: "fsmonitor", value: "x", hasValue: true}, false},
		{gitEntry{section: "core", key: "hookspath", value: "x", hasValue: true}, false},
		{gitEntry{section: "remote", subsection: "origin", key: "uploadpack", value: "x", hasValue: true}, false},
		{gitEntry{section: "include", key: "path", value: "x", hasValue: true}, false},
		{gitEntry{section: "core", subsection: "x", key: "bare", value: "x", hasValue: true}, false},
	} {
		if got := gitConfigSafe(tc.e); got != tc.safe {
			t.Errorf("gitConfigSafe(%s=%s) = %v, want %v", tc.e.name(), tc.e.value, got, tc.safe)
		}
	}
}
