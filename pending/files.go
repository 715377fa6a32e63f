package pending

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxFileSize bounds every file read from the folder.
const maxFileSize = 64 << 10

const (
	requestSuffix = ".request.json"
	answerSuffix  = ".answer.json"
)

func requestName(id string) string { return id + requestSuffix }
func answerName(id string) string  { return id + answerSuffix }

// splitName parses a name in the folder: the id, and whether it is a
// request (else an answer). Dot-files (writes in progress) and anything
// else are not pending files.
func splitName(name string) (id string, isRequest bool, ok bool) {
	if strings.HasPrefix(name, ".") {
		return "", false, false
	}
	if id, found := strings.CutSuffix(name, requestSuffix); found && validID(id) {
		return id, true, true
	}
	if id, found := strings.CutSuffix(name, answerSuffix); found && validID(id) {
		return id, false, true
	}
	return "", false, false
}

// readFile reads a file of the folder with every rule of the contract: no
// symbolic link (opened with O_NOFOLLOW, then checked with fstat on the
// open file), a regular file of this user that no one else may write, and
// never more than 64 KiB (at most 64 KiB + 1 bytes are read to tell).
func readFile(path string) ([]byte, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkFile(info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%w: it grew while being read", ErrTooLarge)
	}
	return data, nil
}

func checkFile(info fs.FileInfo) error {
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%w: its mode is %s", ErrNotRegular, info.Mode())
	case info.Size() > maxFileSize:
		return fmt.Errorf("%w: it holds %d bytes", ErrTooLarge, info.Size())
	}
	return ownedBySelf(info)
}

// writeFile puts data at dir/name: a dot-file in the same folder, written
// and fsynced, then moved to name, then the folder fsynced. With replace
// false the move is a hard link, which fails with fs.ErrExist when name is
// taken: the first writer wins, and no one overwrites another's answer.
func writeFile(dir, name string, data []byte, replace bool) error {
	tmp, err := writeTemp(dir, name, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // after a link, or after a failure; gone after a rename
	final := filepath.Join(dir, name)
	if replace {
		err = os.Rename(tmp, final)
	} else {
		err = os.Link(tmp, final)
	}
	if err != nil {
		return err
	}
	return syncDir(dir)
}

func writeTemp(dir, name string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, ".tmp-"+name+"-*") // mode 0600
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// removeFile removes path; a file already gone is no error.
func removeFile(path string) error {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// ensureFolder creates the folder (0700) when missing and refuses one that
// is not a directory of this user that only this user may write.
func ensureFolder(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the pending folder: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check the pending folder: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%w: %s is not a directory (is it a symbolic link?); remove it and let wisp create it", ErrUnsafeFolder, dir)
	}
	if err := ownedBySelf(info); err != nil {
		return fmt.Errorf("%w: %s: %v; run chown and chmod 700 on it", ErrUnsafeFolder, dir, err)
	}
	return nil
}
