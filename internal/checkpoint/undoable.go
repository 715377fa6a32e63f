package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxUndoableEntries bounds the walk of Undoable: a folder larger than
// this is not vouched for, and a line that deletes it asks.
const maxUndoableEntries = 50_000

// Undoable says whether deleting or overwriting path (absolute, or from
// dir) is what a checkpoint of roots puts back, and if not, why: the path
// must lie inside a root (its folder's links resolved; a link is recorded
// as a link), be no .git nor inside one, and neither it nor anything below
// it may be left out of checkpoints (a .gitignore entry, a socket, pipe or
// device, a .git, wisp's own store among skip). A path that does not exist
// loses nothing. The gate asks it before letting a deletion pass unasked.
func Undoable(roots []string, dir, path string, skip []string) error {
	return undoable(roots, dir, path, skip, true)
}

// UndoableLocation is Undoable for a command that leaves ignored files
// and repositories be (git clean without -x, git reset --hard): it checks
// where path is, not what is below it.
func UndoableLocation(roots []string, dir, path string, skip []string) error {
	return undoable(roots, dir, path, skip, false)
}

func undoable(roots []string, dir, path string, skip []string, deep bool) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	path = filepath.Clean(path)
	parent, err := filepath.EvalSymlinks(filepath.Dir(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%s cannot be checked: %w", path, err)
	}
	if filepath.Base(path) != "/" && filepath.Base(path) != "." {
		path = filepath.Join(parent, filepath.Base(path))
	} else {
		path = parent
	}
	roots, err = canonRoots(roots)
	if err != nil {
		return err
	}
	root := ""
	for _, r := range roots {
		if within(path, r) {
			root = r
		}
	}
	if root == "" {
		return fmt.Errorf("%s is outside the folders checkpoints record", path)
	}
	for _, s := range skip {
		if within(path, s) || deep && within(s, path) {
			return fmt.Errorf("%s holds what checkpoints leave out (%s)", path, s)
		}
	}
	r, parts, err := rulesDownTo(root, path)
	if err != nil {
		return err
	}
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%s cannot be checked: %w", path, err)
	}
	if len(parts) > 0 && r.ignores(parts, st.IsDir()) {
		return fmt.Errorf("%s is left out of checkpoints by .gitignore", path)
	}
	if !deep {
		return nil
	}
	n := 0
	return checkBelow(path, parts, r, st, &n)
}

// rulesDownTo reads the .gitignore files from root down to path's folder,
// refusing a path inside a .git.
func rulesDownTo(root, path string) (rules, []string, error) {
	var parts []string
	if path != root {
		parts = strings.Split(strings.TrimPrefix(path, strings.TrimSuffix(root, "/")+"/"), "/")
	}
	for _, p := range parts {
		if isGitDir(p) {
			return rules{}, nil, fmt.Errorf("%s is a repository's own folder, which checkpoints never record", path)
		}
	}
	r := rules{}
	folder := root
	for i := 0; i <= len(parts)-1; i++ {
		var err error
		if r, err = enterFolder(r, folder, parts[:i]); err != nil {
			return rules{}, nil, err
		}
		folder = filepath.Join(folder, parts[i])
	}
	return r, parts, nil
}

func enterFolder(r rules, folder string, parts []string) (rules, error) {
	content, err := os.ReadFile(filepath.Join(folder, gitignoreName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rules{}, fmt.Errorf("%s cannot be checked: %w", folder, err)
	}
	return r.enter(parts, content), nil
}

// checkBelow refuses a folder that holds anything a checkpoint leaves out.
func checkBelow(path string, parts []string, r rules, st fs.FileInfo, n *int) error {
	switch {
	case st.Mode()&(fs.ModeSocket|fs.ModeNamedPipe|fs.ModeDevice|fs.ModeCharDevice) != 0:
		return fmt.Errorf("%s is a socket, pipe or device, which checkpoints do not record", path)
	case !st.IsDir():
		return nil
	}
	in, err := enterFolder(r, path, parts)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return fmt.Errorf("%s cannot be checked: %w", path, err)
	}
	for _, e := range entries {
		if *n++; *n > maxUndoableEntries {
			return fmt.Errorf("%s holds more than %d entries, too many to check", path, maxUndoableEntries)
		}
		sub := filepath.Join(path, e.Name())
		subParts := append(parts[:len(parts):len(parts)], e.Name())
		if isGitDir(e.Name()) {
			return fmt.Errorf("%s is a repository's own folder, which checkpoints never record", sub)
		}
		info, err := e.Info()
		if err != nil {
			return fmt.Errorf("%s cannot be checked: %w", sub, err)
		}
		if in.ignores(subParts, info.IsDir()) {
			return fmt.Errorf("%s is left out of checkpoints by .gitignore", sub)
		}
		if err := checkBelow(sub, subParts, in, info, n); err != nil {
			return err
		}
	}
	return nil
}
