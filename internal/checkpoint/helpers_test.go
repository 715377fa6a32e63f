package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// project is a root with its store, as wisp lays them out: the store in
// a home outside the project.
type project struct {
	t     *testing.T
	dir   string
	home  string
	store *Store
}

func newProject(t *testing.T, opts Options) *project {
	t.Helper()
	base := t.TempDir()
	p := &project{t: t, dir: filepath.Join(base, "project"), home: filepath.Join(base, "home")}
	if err := os.Mkdir(p.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p.open(opts)
	return p
}

func (p *project) open(opts Options) {
	p.t.Helper()
	if p.store != nil {
		p.store.Close()
	}
	s, err := Open(Dir(p.home, p.dir), opts)
	if err != nil {
		p.t.Fatal(err)
	}
	p.store = s
	p.t.Cleanup(func() { s.Close() })
}

func (p *project) path(rel string) string { return filepath.Join(p.dir, rel) }

// write makes the files named, with their folders: "a/b" holds content,
// "a/l@" is a link to content, "a/d/" an empty folder.
func (p *project) write(files map[string]string) {
	p.t.Helper()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		content := files[name]
		var err error
		switch {
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p.path(name), 0o755)
		case strings.HasSuffix(name, "@"):
			path := p.path(strings.TrimSuffix(name, "@"))
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.Remove(path)
			err = os.Symlink(content, path)
		default:
			os.MkdirAll(filepath.Dir(p.path(name)), 0o755)
			err = os.WriteFile(p.path(name), []byte(content), 0o644)
		}
		if err != nil {
			p.t.Fatal(err)
		}
	}
}

func (p *project) take(label string) *Checkpoint {
	p.t.Helper()
	cp, err := p.store.Take([]string{p.dir}, label)
	if err != nil {
		p.t.Fatalf("take %q: %v", label, err)
	}
	return cp
}

func (p *project) restore(cp *Checkpoint, opts RestoreOptions) *Restored {
	p.t.Helper()
	res, err := p.store.Restore(cp, opts)
	if err != nil {
		p.t.Fatalf("restore checkpoint %d: %v", cp.ID, err)
	}
	return res
}

// refusedRestore checks that a restore to cp fails with an error that
// says each of says, and leaves the project and the store as they were.
func (p *project) refusedRestore(cp *Checkpoint, says ...string) {
	p.t.Helper()
	before := snapshot(p.t, p.dir)
	_, err := p.store.Restore(cp, RestoreOptions{})
	for _, want := range says {
		if err == nil || !strings.Contains(err.Error(), want) {
			p.t.Fatalf("Restore = %v, want an error that says %q", err, want)
		}
	}
	sameTree(p.t, "the project after a refused restore", before, snapshot(p.t, p.dir))
	if _, err := os.Stat(p.store.journalPath()); !errors.Is(err, fs.ErrNotExist) {
		p.t.Errorf("a journal is left after a refused restore: %v", err)
	}
}

// snapshot describes every entry under dir, .git and ignored files
// included, by type, mode and content: two equal snapshots are the same
// tree as a person (or git) sees it.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		mode := fi.Mode()
		switch {
		case mode.IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			state[rel] = mode.String() + " " + hex.EncodeToString(sum[:8])
		case mode&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			state[rel] = "link -> " + target
		default:
			state[rel] = mode.String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// sameTree fails t with the differences between two snapshots.
func sameTree(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			diffs = append(diffs, k+": want "+orNone(want[k])+", got "+orNone(got[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, k+": want none, got "+got[k])
		}
	}
	if len(diffs) > 0 {
		t.Errorf("%s differs:\n\t%s", what, strings.Join(diffs, "\n\t"))
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// git runs the real git in dir, with an identity and no user config.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here (CI installs it)")
	}
}

// gitState is what a person would check of a repository: its status,
// refs, stash and index, and every byte under .git.
func gitState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{
		"status": git(t, dir, "status", "--porcelain=v1", "--untracked-files=all"),
		"refs":   git(t, dir, "show-ref", "--head"),
		"stash":  git(t, dir, "stash", "list"),
	}
	for k, v := range snapshot(t, filepath.Join(dir, ".git")) {
		state[".git/"+k] = v
	}
	return state
}

// later is a clock an hour ahead: files written by the test are then no
// longer racily clean, and the index may keep them.
func later() time.Time { return time.Now().Add(time.Hour) }

func changeSet(changes []Change) map[string]string {
	set := map[string]string{}
	for _, c := range changes {
		v := string(c.What) + " " + c.Type
		if c.WasType != "" {
			v += " (was " + c.WasType + ")"
		}
		if c.ModeOnly {
			v += " mode"
		}
		set[c.Path] = v
	}
	return set
}
