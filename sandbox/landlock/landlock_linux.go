package landlock

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// Landlock confines commands on Linux through the helper, run as
// `__sandbox-exec`: wisp-sandbox beside wisp's executable, or wisp's own.
type Landlock struct {
	exe      string // the real path of wisp's executable
	helper   string // the helper's real path: wisp-sandbox beside exe, or exe
	features sandbox.LandlockFeatures

	nsOnce     sync.Once
	ns         sandbox.Namespace // as asked, then as probed
	nsWhyNo    string            // why no namespace can be had, when ns is none
	probeCache string            // where the probe's answer is remembered, or ""
}

// NewLandlock returns the Landlock backend that runs exe as its helper. ns
// chooses how protected paths inside a root are kept unwritable;
// NamespaceAuto probes once, the first time it matters.
func NewLandlock(exe string, ns sandbox.Namespace) (*Landlock, error) {
	features, err := kernelFeatures()
	if err != nil {
		return nil, landlockUnavailable(err)
	}
	if !features.Filesystem {
		return nil, &sandbox.UnavailableError{Why: fmt.Sprintf("the kernel offers Landlock ABI %d", features.ABI)}
	}
	real, err := paths.Realpath(exe)
	if err != nil || !filepath.IsAbs(exe) {
		return nil, &sandbox.UnavailableError{Why: fmt.Sprintf("cannot find wisp's executable %q to run as the sandbox helper", exe), Err: err}
	}
	helper, err := helperBeside(real)
	if err != nil {
		return nil, err
	}
	l := &Landlock{exe: real, helper: helper, features: features, ns: ns}
	if ns == sandbox.NamespaceNone {
		l.nsWhyNo = "the backend was told to use none"
	}
	return l, nil
}

func landlockUnavailable(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return &sandbox.UnavailableError{Why: "this kernel has no Landlock", Err: err,
			Fix: "use a kernel built with CONFIG_SECURITY_LANDLOCK (Linux 5.13 or later)"}
	case errors.Is(err, syscall.EOPNOTSUPP):
		return &sandbox.UnavailableError{Why: "Landlock is built into this kernel but turned off", Err: err,
			Fix: "add landlock to the lsm= kernel boot parameter (/sys/kernel/security/lsm lists the active ones)"}
	}
	return &sandbox.UnavailableError{Why: "the kernel refused to say whether it has Landlock", Err: err}
}

// Name is "landlock".
func (l *Landlock) Name() string { return "landlock" }

// Features says what Landlock enforces on this kernel.
func (l *Landlock) Features() sandbox.LandlockFeatures { return l.features }

// Executable is the helper's executable, as the argv names it:
// wisp-sandbox beside wisp, or wisp itself.
func (l *Landlock) Executable() string { return l.helper }

// Namespace says which mount namespace the helper will use, probing once
// when it was asked to find out, and if none, why.
func (l *Landlock) Namespace() (sandbox.Namespace, string) {
	l.nsOnce.Do(func() {
		if l.ns == sandbox.NamespaceAuto {
			l.ns, l.nsWhyNo = l.probe()
		}
	})
	return l.ns, l.nsWhyNo
}

// probe runs the helper's namespace probe, or takes its answer from the
// cache when nothing it depends on has changed since.
func (l *Landlock) probe() (sandbox.Namespace, string) {
	fingerprint, err := "", error(nil)
	if l.probeCache != "" {
		fingerprint, err = probeFingerprint(l.helper)
		if ns, why, ok := cachedProbe(l.probeCache, fingerprint); err == nil && ok {
			return ns, why
		}
	}
	ns, why, definite := probeHelper(l.helper)
	if l.probeCache != "" && err == nil && definite {
		rememberProbe(l.probeCache, fingerprint, ns, why)
	}
	return ns, why
}

// probeHelper runs the helper's namespace probe. The answer is definite
// when the helper said which namespace works or why none does; a probe that
// could not run or was cut short is not, and is not remembered.
func probeHelper(exe string) (ns sandbox.Namespace, why string, definite bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, exe, helperArgs{probe: true}.encode()...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch ns := sandbox.Namespace(strings.TrimSpace(stdout.String())); {
	case err == nil && (ns == sandbox.NamespaceMount || ns == sandbox.NamespaceUser):
		return ns, "", true
	case stderr.Len() > 0:
		definite = errors.As(err, &exit) && exit.ExitCode() == sandbox.HelperFailedStatus && ctx.Err() == nil
		return sandbox.NamespaceNone, strings.TrimSpace(strings.TrimPrefix(stderr.String(), "wisp: error: sandbox: ")), definite
	}
	return sandbox.NamespaceNone, fmt.Sprintf("the namespace probe failed: %v", err), false
}

// Check keeps wisp's home and the helper's executable unwritable or
// refuses the spec, and lists the other protected paths inside a root that
// it cannot keep unwritable here as Unprotected.
func (l *Landlock) Check(spec sandbox.Spec) (sandbox.Spec, error) {
	out := spec
	out.Unprotected = nil
	for _, p := range l.protectedInRoots(spec) {
		why := l.cannotCover(p.path, p.what == sandbox.WhatHome)
		switch {
		case why == "":
			continue
		case p.what != "":
			return spec, &sandbox.UnprotectableError{Path: p.path, What: p.what, Root: paths.OutermostRoot(p.path, spec.Roots), Why: why}
		}
		out.Unprotected = append(out.Unprotected, sandbox.Unprotected{Path: p.path, Why: why})
	}
	return out, nil
}

type protectedPath struct {
	path string
	what string // WhatHome or WhatExecutable for what must never be writable; "" for the rest
}

// protectedInRoots lists the protected paths that lie inside a root, and
// wisp's and the helper's executables when they do (executables).
func (l *Landlock) protectedInRoots(spec sandbox.Spec) []protectedPath {
	var out []protectedPath
	for _, p := range append(append([]string{}, spec.Protected...), l.executables()...) {
		if paths.OutermostRoot(p, spec.Roots) == "" {
			continue
		}
		what := ""
		switch {
		case p == l.exe || p == l.helper:
			what = sandbox.WhatExecutable
		case p == spec.Home || paths.RealpathMissingOK(p) == spec.Home:
			what = sandbox.WhatHome
		}
		out = append(out, protectedPath{path: p, what: what})
	}
	return out
}

// executables are wisp's, its helper's, and the others installed beside
// them (BesideExecutables): a command that could replace one would run
// unconfined, as the person's next wisp, wisp-bar or as the next command's
// helper.
func (l *Landlock) executables() []string {
	out := []string{l.exe}
	if l.helper != l.exe {
		out = append(out, l.helper)
	}
	for _, name := range sandbox.BesideExecutables {
		p := filepath.Join(filepath.Dir(l.exe), name)
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// cannotCover says why the helper cannot bind p read-only (and, for
// wisp's home, cover it: hidden), or "".
func (l *Landlock) cannotCover(p string, hidden bool) string {
	info, err := os.Lstat(p)
	switch {
	case err != nil:
		return "it does not exist yet, and Landlock cannot stop a command from creating it"
	case info.Mode()&os.ModeSymlink != 0:
		return "it is a symbolic link, which a command could replace"
	}
	ns, why := l.Namespace()
	switch {
	case ns == sandbox.NamespaceNone && hidden:
		return "no mount namespace can be had here to keep it unwritable and unreadable (" + why + "): inside a root, Landlock grants both"
	case ns == sandbox.NamespaceNone:
		return "no mount namespace can be had here to bind it read-only (" + why + ")"
	}
	return ""
}

// Command returns the helper's argv for line: the roots, the protected
// paths it must bind read-only, the network switch, the namespace kind.
func (l *Landlock) Command(spec sandbox.Spec, line string) ([]string, error) {
	h, err := l.helperArgs(spec, line)
	if err != nil {
		return nil, err
	}
	return append([]string{l.helper}, h.encode()...), nil
}

// CommandAttr is Command for a caller that starts the process with attr:
// where the helper needs a user namespace, the caller's clone makes it, and
// the helper skips starting itself again (one start of wisp, not two); the
// clone makes the helper's PID namespace too (startAttr).
func (l *Landlock) CommandAttr(spec sandbox.Spec, line string) ([]string, *syscall.SysProcAttr, error) {
	h, err := l.helperArgs(spec, line)
	if err != nil {
		return nil, nil, err
	}
	attr := startAttr(&h)
	return append([]string{l.helper}, h.encode()...), attr, nil
}

// startAttr is how wisp starts a helper (one command's, or a served one)
// for h, which it tells which namespace it is in. Namespaces are made at
// the clone, so that they are every thread's: a user namespace (which only
// a single-threaded process may unshare), and the mount namespace of a
// helper that lives on beside its commands. Unless background processes
// are allowed, the helper is also the first process of a PID namespace
// where one can be had, whose end is every process's in it, and dies with
// wisp; without one it ends the command's processes itself when wisp dies.
func startAttr(h *helperArgs) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{}
	switch h.ns {
	case sandbox.NamespaceUser:
		h.ns, attr = namespaceEntered, userNamespaceAttr()
	case sandbox.NamespaceMount:
		h.ns, attr.Unshareflags = namespaceUnshared, syscall.CLONE_NEWNS
	}
	switch {
	case h.background:
	case h.ns == namespaceEntered || h.ns == namespaceUnshared:
		attr.Cloneflags |= syscall.CLONE_NEWPID
		attr.Pdeathsig = syscall.SIGKILL
	default:
		attr.Pdeathsig = syscall.SIGTERM
	}
	return attr
}

func (l *Landlock) helperArgs(spec sandbox.Spec, line string) (helperArgs, error) {
	checked, err := l.Check(spec)
	if err != nil {
		return helperArgs{}, err
	}
	h := helperArgs{roots: spec.Roots, noNetwork: !spec.Network, unixSockets: spec.UnixSockets, ns: sandbox.NamespaceNone, argv: sandbox.Plain(line)}
	h.background, h.proxyPort = spec.Background, spec.ProxyPort()
	h.denyRead, h.allowRead, h.hide = spec.DenyRead, spec.AllowRead, spec.Hidden
	if l.helper != l.exe {
		h.version = sandbox.BuildVersion
	}
	for _, p := range l.protectedInRoots(spec) {
		if !isUnprotected(checked, p.path) {
			h.protect = append(h.protect, p.path)
		}
	}
	// Always: where a namespace can be had, the helper makes everything
	// outside the roots read-only in it, which Landlock alone cannot.
	h.ns, _ = l.Namespace()
	viewed := h.ns == sandbox.NamespaceMount || h.ns == sandbox.NamespaceUser
	if l.features.UnixGuard(h.unixSockets, viewed) == sandbox.UnixHidden {
		h.socketHomes = socketHomes(os.Getenv, os.Geteuid(), userHome())
	}
	return h, nil
}

func isUnprotected(spec sandbox.Spec, p string) bool {
	for _, u := range spec.Unprotected {
		if u.Path == p {
			return true
		}
	}
	return false
}
