package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// home is where the person's home is during a run, the same folder for
// every run and for warming the account: Go keys its build cache by the
// packages' folders, and a home at another path would find a warm cache
// cold. Each run gets it afresh; afterwards it is kept under runs/.
func (s *suite) home() string { return filepath.Join(s.dir, "home") }

// seedHome is the warm account, kept between suite runs; a warm run's home
// is a copy of it.
func (s *suite) seedHome() string { return filepath.Join(s.dir, "seed", "home") }

// warmSeed makes the warm account: a home in which a person has built
// these projects before (each project's Warm line run bare in a copy of its
// source, where its runs will be), so Go's module and build caches and
// npm's cache are filled, and git knows who the person is. It is made
// once for a set of projects and kept.
func (s *suite) warmSeed(ps []project, sources map[string]string) error {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	stamp := filepath.Join(s.dir, "seed", "projects")
	want := "made at " + s.home() + " for\n" + strings.Join(names, "\n") + "\n"
	if have, err := os.ReadFile(stamp); err == nil && string(have) == want {
		return nil
	}
	if err := removeTree(filepath.Dir(s.seedHome())); err != nil {
		return err
	}
	if err := s.emptyHome(); err != nil {
		return err
	}
	gitconfig := fmt.Sprintf("[user]\n\tname = %s\n\temail = %s@example.invalid\n", s.person.Name, s.person.Name)
	if err := os.WriteFile(filepath.Join(s.home(), ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		return err
	}
	if err := s.person.own(s.home()); err != nil {
		return err
	}
	for _, p := range ps {
		if p.Warm == "" {
			continue
		}
		fmt.Fprintf(s.progress, "compat: warming the account with %s (%s)\n", p.Name, p.Warm)
		if err := s.warm(p, sources[p.Name]); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(s.seedHome()), 0o755); err != nil {
		return err
	}
	if err := os.Rename(s.home(), s.seedHome()); err != nil {
		return err
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}

// warm runs p's Warm line bare, as the person, in a copy of its source
// where its runs will be, and removes the copy after.
func (s *suite) warm(p project, src string) error {
	dir, err := s.projectCopy(p, src)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if _, err := s.execAs([]string{"/bin/sh", "-c", p.Warm}, dir, s.personEnv(s.home()), &out); err != nil {
		return fmt.Errorf("warming the account with %s (%s in %s): %w\n%s", p.Name, p.Warm, dir, err, lastLines(out.String(), 20))
	}
	return removeTree(dir)
}

// emptyHome makes the home afresh, empty: a fresh account's.
func (s *suite) emptyHome() error {
	if err := removeTree(s.home()); err != nil {
		return err
	}
	if err := os.Mkdir(s.home(), 0o700); err != nil {
		return err
	}
	return s.person.own(s.home())
}

// accountHome makes the home afresh for one run: the warm account's copy,
// or an empty folder for a fresh account.
func (s *suite) accountHome() error {
	if s.account == fresh {
		return s.emptyHome()
	}
	if err := removeTree(s.home()); err != nil {
		return err
	}
	if err := copyTree(s.seedHome(), s.home(), linkable); err != nil {
		return err
	}
	return s.person.own(s.home())
}

// projectCopy copies p's source into the home, the person's.
func (s *suite) projectCopy(p project, src string) (string, error) {
	dir := filepath.Join(s.home(), p.Name)
	if err := copyTree(src, dir, nil); err != nil {
		return "", err
	}
	return dir, s.person.own(dir)
}

// keepHome moves the home a run left to runs/ACCOUNT/PROJECT/MODE/home,
// for a person to look into, in place of the last one there.
func (s *suite) keepHome(p project, m mode) error {
	kept := filepath.Join(s.dir, "runs", string(s.account), p.Name, string(m))
	if err := removeTree(kept); err != nil {
		return err
	}
	if err := os.MkdirAll(kept, 0o755); err != nil {
		return err
	}
	return os.Rename(s.home(), filepath.Join(kept, "home"))
}

// lastLines is the end of a command's output, for an error.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
