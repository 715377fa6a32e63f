package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// A person is the account the projects run as: the unprivileged CI user
// when the suite runs as root, the invoking user otherwise.
type person struct {
	UID, GID int
	Groups   []int
	Name     string
	// Switch: the suite runs as root and starts each run as this user.
	Switch bool
}

// whoRuns finds the person. As root it is the user WISP_TEST_USER_UID
// names (WISP_TEST_USER_GID its group, or the user's own): wisp's users
// are people, not root, and root's outcome can differ.
func whoRuns(getenv func(string) string) (person, error) {
	if os.Geteuid() != 0 {
		u, err := user.Current()
		if err != nil {
			return person{}, err
		}
		return lookupPerson(u, false)
	}
	uidText := getenv("WISP_TEST_USER_UID")
	if uidText == "" {
		return person{}, errors.New("running as root, the suite runs each project as an unprivileged user: set WISP_TEST_USER_UID (and WISP_TEST_USER_GID) to one's ids, as .ci/run does (user wisptest)")
	}
	uid, err := strconv.Atoi(uidText)
	if err != nil || uid <= 0 {
		return person{}, fmt.Errorf("WISP_TEST_USER_UID is %q: it must be the uid of an unprivileged user, not root", uidText)
	}
	u, err := user.LookupId(uidText)
	if err != nil {
		return person{}, fmt.Errorf("WISP_TEST_USER_UID %d: %w (make the user first: useradd --create-home wisptest)", uid, err)
	}
	p, err := lookupPerson(u, true)
	if err != nil {
		return person{}, err
	}
	if gidText := getenv("WISP_TEST_USER_GID"); gidText != "" {
		if p.GID, err = strconv.Atoi(gidText); err != nil {
			return person{}, fmt.Errorf("WISP_TEST_USER_GID is %q, not a number", gidText)
		}
	}
	return p, nil
}

func lookupPerson(u *user.User, switching bool) (person, error) {
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return person{}, err
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return person{}, err
	}
	p := person{UID: uid, GID: gid, Name: u.Username, Switch: switching}
	groups, _ := u.GroupIds()
	for _, g := range groups {
		if n, err := strconv.Atoi(g); err == nil {
			p.Groups = append(p.Groups, n)
		}
	}
	return p, nil
}

// own gives path and everything under it to the person, as a copy into
// their home would be theirs. Without a switch of user it is theirs already.
func (p person) own(path string) error {
	if !p.Switch {
		return nil
	}
	return filepath.WalkDir(path, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(name, p.UID, p.GID)
	})
}

// linkable says which files of a home a copy may share with its source
// (hard links) rather than copy: the Go module cache and the entries of Go's
// build cache, which go writes once and never changes. Everything else is
// copied: npm appends to its cache's index files.
func linkable(rel string) bool {
	rel = filepath.ToSlash(rel)
	if strings.HasPrefix(rel, "go/pkg/mod/") {
		return true
	}
	rest, ok := strings.CutPrefix(rel, ".cache/go-build/")
	dir, _, nested := strings.Cut(rest, "/")
	return ok && nested && len(dir) == 2
}

// copyTree copies the tree at from to to (which must not exist), with
// modes, links and times; a file that link (when not nil) accepts is hard
// linked instead. Folders get their modes last, so a read-only folder (the
// module cache's) is filled first.
func copyTree(from, to string, link func(rel string) bool) error {
	type folder struct {
		path string
		mode fs.FileMode
	}
	var folders []folder
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			folders = append(folders, folder{dst, info.Mode().Perm()})
			if rel == "." {
				return os.MkdirAll(dst, 0o700)
			}
			return os.Mkdir(dst, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case !d.Type().IsRegular():
			return nil // sockets and fifos a build left: not part of a source or cache
		case link != nil && link(rel):
			return os.Link(path, dst)
		}
		return copyFile(path, dst, info)
	})
	if err != nil {
		return fmt.Errorf("copying %s to %s: %w", from, to, err)
	}
	for i := len(folders) - 1; i >= 0; i-- {
		if err := os.Chmod(folders[i].path, folders[i].mode); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string, info fs.FileInfo) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	return os.Chtimes(to, info.ModTime(), info.ModTime())
}

// userWritable adds the owner's write bit to everything under path: a
// module as the module cache holds it is read-only, a person's checkout is not.
func userWritable(path string) error {
	return filepath.WalkDir(path, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.Chmod(name, info.Mode().Perm()|0o200)
	})
}

// removeTree removes path, making its folders writable first where a
// remove is refused (the module cache's are read-only, and the suite may
// not run as root).
func removeTree(path string) error {
	if err := os.RemoveAll(path); err == nil || !errors.Is(err, fs.ErrPermission) {
		return err
	}
	filepath.WalkDir(path, func(name string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(name, 0o700)
		}
		return nil
	})
	return os.RemoveAll(path)
}

// searchable refuses a folder on the way to the cache that the person may
// not pass through: their runs could not reach their own homes.
func (s *suite) searchable(dir string) error {
	if !s.person.Switch {
		return nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	perm := info.Mode().Perm()
	ok := perm&0o001 != 0
	if st, isUnix := info.Sys().(*syscall.Stat_t); isUnix {
		ok = ok || int(st.Uid) == s.person.UID && perm&0o100 != 0 ||
			slices.Contains(append(s.person.Groups, s.person.GID), int(st.Gid)) && perm&0o010 != 0
	}
	if !ok {
		return fmt.Errorf("uid %d cannot pass through %s (mode %s), on the way to the suite's folder %s: give -dir a folder it can reach", s.person.UID, dir, perm, s.dir)
	}
	return nil
}
