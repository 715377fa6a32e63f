package landlock

import (
	"errors"
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// All of these act on the calling thread only (a mount namespace, the
// capability sets): the helper calls them from its locked main thread, the
// one that execs the command.

// errNotUnshared refuses --ns unshared in a process that shares its
// parent's mount namespace, where its mounts would land in the person's.
var errNotUnshared = errors.New("--ns unshared is for a served helper started in a mount namespace of its own, and this one shares wisp's")

// inOwnMountNamespace reports whether this process's mount namespace is
// not its parent's (wisp's); when either cannot be read, it is not.
func inOwnMountNamespace() bool {
	own, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return false
	}
	parent, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", parentPid()))
	return err == nil && parent != own
}

// unshareMounts gives the thread a mount namespace of its own.
func unshareMounts() error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("unshare a mount namespace: %w", err)
	}
	return makeMountsPrivate()
}

// makeMountsPrivate stops the namespace's mounts from propagating back
// to the person's: without it the read-only binds would appear there too.
func makeMountsPrivate() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make the mounts private: %w", err)
	}
	return nil
}

// applyMounts makes the planned mounts.
func applyMounts(ops []paths.MountOp) error {
	for _, op := range ops {
		if err := unix.Mount(op.Path, op.Path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", op.Path, err)
		}
		if !op.ReadOnly {
			continue
		}
		if err := makeReadOnly(op.Path); err != nil {
			return fmt.Errorf("make %s read-only: %w", op.Path, err)
		}
	}
	return nil
}

// makeReadOnly turns the mount at p and every mount below it read-only,
// changing no other flag (a user namespace may not clear nosuid or nodev).
func makeReadOnly(p string) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	err := unix.MountSetattr(unix.AT_FDCWD, p, unix.AT_RECURSIVE, &attr)
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	return remountReadOnly(p) // kernels before 5.12
}

// remountReadOnly is makeReadOnly for old kernels: a remount that repeats
// the flags the mount has, so that none is dropped.
func remountReadOnly(p string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for st2ms, ms := range map[int64]uintptr{
		unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME,
	} {
		if st.Flags&st2ms != 0 {
			flags |= ms
		}
	}
	return unix.Mount("", p, "", flags, "")
}

// dropPrivileges runs last before the exec. It clears the ambient
// capabilities the user-namespace stage was given to mount with, and, for
// root, drops from the bounding set what could reach around the mounts:
// CAP_SYS_ADMIN (setns into another mount namespace) and
// CAP_DAC_READ_SEARCH (open_by_handle_at, which opens a file without its
// path and so without its read-only mount).
func dropPrivileges(euid int) error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	if euid != 0 {
		return nil
	}
	for _, c := range []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_DAC_READ_SEARCH} {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	return nil
}
