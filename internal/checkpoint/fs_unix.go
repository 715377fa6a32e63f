//go:build linux || darwin

package checkpoint

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fileStat is what the index compares to tell an unchanged file without
// reading it, as git's index does.
type fileStat struct {
	size  int64
	mtime int64 // nanoseconds since the epoch
	ctime int64
	ino   uint64
	dev   uint64
	mode  uint32 // st_mode: type and permission bits
	// links is the count of hard links: a file with more than one can
	// change through a name in another folder, which a watch on this
	// one does not see. The index does not compare it.
	links uint64
}

func statOf(st *unix.Stat_t) fileStat {
	return fileStat{
		size:  st.Size,
		mtime: unix.TimespecToNsec(st.Mtim),
		ctime: unix.TimespecToNsec(st.Ctim),
		ino:   uint64(st.Ino),
		dev:   uint64(st.Dev),   // int32 on darwin
		mode:  uint32(st.Mode),  // uint16 on darwin
		links: uint64(st.Nlink), // uint16 on darwin
	}
}

func (st fileStat) kind() kind {
	switch st.mode & unix.S_IFMT {
	case unix.S_IFREG:
		return kindFile
	case unix.S_IFDIR:
		return kindDir
	case unix.S_IFLNK:
		return kindSymlink
	}
	return kindOther
}

func (st fileStat) perm() uint32 { return st.mode & 0o7777 }

// lstatAt stats name in the folder open as dirfd, not following a link.
func lstatAt(dirfd int, name string) (fileStat, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	return statOf(&st), err
}

func fstat(fd int) (fileStat, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstat(fd, &st) })
	return statOf(&st), err
}

// openDirAt opens the folder name in dirfd; a link there is refused
// (ELOOP or ENOTDIR), so that a walk never leaves the folder it walks.
func openDirAt(dirfd int, name string) (*os.File, error) {
	fd, err := openAt(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// openFileAt opens the regular file name in dirfd for reading: never
// through a link, and without blocking on a pipe put there meanwhile.
func openFileAt(dirfd int, name string) (*os.File, error) {
	fd, err := openAt(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

func openAt(dirfd int, name string, flags int) (int, error) {
	var fd int
	err := ignoringEINTR(func() error {
		var err error
		fd, err = unix.Openat(dirfd, name, flags|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

func readlinkAt(dirfd int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dirfd, name, buf)
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// lockFile takes an exclusive lock on f, waiting for another wisp in the
// same project to finish what it does with the store.
func lockFile(f *os.File) error {
	return ignoringEINTR(func() error { return unix.Flock(int(f.Fd()), unix.LOCK_EX) })
}

func unlockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// isNoSpace reports whether err says the disk is full (or the quota spent).
func isNoSpace(err error) bool {
	return errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT)
}

func statPath(path string) (fileStat, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Stat(path, &st) })
	return statOf(&st), err
}

// writableDir reports why the folder dir does not let this process add or
// remove entries, or nil.
func writableDir(dir string) error {
	if dir == "" {
		dir = "/"
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return &os.PathError{Op: "write in", Path: dir, Err: err}
	}
	return nil
}

// fchmod sets the open file's mode bits as stat gives them (set-id bits
// included, which os.FileMode spells otherwise).
func fchmod(f *os.File, perm uint32) error {
	return ignoringEINTR(func() error { return unix.Fchmod(int(f.Fd()), perm) })
}

// isNotEmpty reports whether err is the removal of a folder that is not
// empty (Linux says ENOTEMPTY, and some systems EEXIST).
func isNotEmpty(err error) bool {
	return errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST)
}
