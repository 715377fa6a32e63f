package refusal

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// confineSpec is what the helper applies before it execs the line.
type confineSpec struct {
	Line       string   // run as /bin/sh -c Line
	Writable   []string // Landlock's writable directories
	ReadOnly   []string // bound read-only in a private mount namespace
	NetworkOff bool     // no TCP connect or bind
	UID, GID   int      // drop to this user after confining, when not 0
}

// confineAndExec is the helper's whole life: a private mount namespace
// with the read-only binds (as the sandbox protects .git/hooks), Landlock
// (read everywhere, write the roots, no TCP when the network is off,
// signals scoped), no_new_privs (go-landlock sets it), then exec.
func confineAndExec(raw string) error {
	var spec confineSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return err
	}
	runtime.LockOSThread() // the mount namespace belongs to this thread until exec
	if err := bindReadOnly(spec.ReadOnly); err != nil {
		return err
	}
	if err := restrict(spec); err != nil {
		return err
	}
	if err := dropTo(spec.UID, spec.GID); err != nil {
		return err
	}
	return syscall.Exec("/bin/sh", []string{"/bin/sh", "-c", spec.Line}, os.Environ())
}

func bindReadOnly(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("unshare mount namespace: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	for _, p := range paths {
		if err := unix.Mount(p, p, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s: %w", p, err)
		}
		if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return fmt.Errorf("remount %s read-only: %w", p, err)
		}
	}
	return nil
}

func restrict(spec confineSpec) error {
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(spec.Writable...),
		landlock.RWFiles("/dev/null"),
	}
	cfg := landlock.V6.BestEffort()
	if spec.NetworkOff {
		return cfg.Restrict(rules...) // files, TCP (no port allowed) and scoping
	}
	if err := cfg.RestrictPaths(rules...); err != nil {
		return err
	}
	return cfg.RestrictScoped()
}

func dropTo(uid, gid int) error {
	if uid == 0 {
		return nil
	}
	if err := syscall.Setgroups(nil); err != nil {
		return err
	}
	if err := syscall.Setgid(gid); err != nil {
		return err
	}
	return syscall.Setuid(uid)
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock.
func landlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, 1) // LANDLOCK_CREATE_RULESET_VERSION
	if errno != 0 {
		return 0
	}
	return int(v)
}
