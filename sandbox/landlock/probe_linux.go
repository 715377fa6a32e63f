package landlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// probeNamespace is `wisp __sandbox-exec --probe-ns`: it finds which kind of
// mount namespace the helper can have here by making one and binding its
// own executable read-only in it, prints that kind (mount or user) and
// exits. The namespace dies with the probe. With --ns it tries only that
// kind; otherwise a mount namespace first when running as root.
func probeNamespace(h helperArgs) int {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return sandbox.HelperFailed(fmt.Errorf("find the helper's executable: %w", err))
	}
	ops := []paths.MountOp{{Path: exe, ReadOnly: true}}
	var errs []error
	for _, kind := range probeKinds(h.ns) {
		err := tryNamespace(h, kind, ops)
		if err == nil {
			if kind != namespaceEntered {
				fmt.Println(kind)
			}
			return 0
		}
		errs = append(errs, fmt.Errorf("%s namespace: %w", kind, err))
	}
	return sandbox.HelperFailed(errors.Join(errs...))
}

func probeKinds(ns sandbox.Namespace) []sandbox.Namespace {
	switch {
	case ns != sandbox.NamespaceAuto:
		return []sandbox.Namespace{ns}
	case os.Geteuid() == 0:
		return []sandbox.Namespace{sandbox.NamespaceMount, sandbox.NamespaceUser}
	}
	return []sandbox.Namespace{sandbox.NamespaceUser}
}

// probeMounts makes the mounts a command's namespace needs: a read-only
// bind, the read-only view of everything (no roots here), and a tmpfs
// cover (over the bound file's folder, as over wisp's home), so that a
// system that allows the first but not the others is not taken for one
// where commands can run. The cover comes last: over a folder that holds
// /proc it would hide the mount table the view reads.
func probeMounts(ops []paths.MountOp) error {
	if err := applyMounts(ops); err != nil {
		return err
	}
	if err := mountPrivateTerminals(); err != nil {
		return err
	}
	if err := readOnlyOutsideRoots(nil, nil); err != nil {
		return err
	}
	if err := mountCover(filepath.Dir(ops[0].Path), 0o700, unix.MS_RDONLY); err != nil {
		return fmt.Errorf("cover a folder with a tmpfs: %w", err)
	}
	return nil
}

func tryNamespace(h helperArgs, kind sandbox.Namespace, ops []paths.MountOp) error {
	switch kind {
	case sandbox.NamespaceMount:
		if err := unshareMounts(); err != nil {
			return err
		}
		return probeMounts(ops)
	case sandbox.NamespaceUser:
		h.ns = sandbox.NamespaceUser
		code, err := runInUserNamespace(h)
		if err == nil && code != 0 {
			err = fmt.Errorf("its second stage failed with status %d", code)
		}
		return err
	case namespaceEntered:
		if inInitialUserNamespace() {
			return errNotEntered
		}
		if err := makeMountsPrivate(); err != nil {
			return err
		}
		return probeMounts(ops)
	}
	return fmt.Errorf("no namespace of kind %q", kind)
}
