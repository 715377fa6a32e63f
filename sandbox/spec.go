package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/wisp-sh/wisp/sandbox/gitguard"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// Spec says what a confined command may do, in terms every backend shares.
type Spec struct {
	// Roots are the folders a command may write under, real paths, the
	// launch directory first.
	Roots []string
	// Protected are never writable, even inside a root: wisp's home and what
	// would run code at the person's next git command. A path reached through
	// a link appears twice, as written and as its real path.
	Protected []string
	// Home is wisp's home as Protected holds it (its real path).
	Home string
	// Hidden are never readable, listable or watchable by a command: wisp's
	// home, as written and as its real path. Its outputs, threads and audit
	// log hold what commands run outside the sandbox printed (a key `!!cat`
	// showed); the model reaches them through wisp, never through a file.
	Hidden []string
	// Network is false when commands may not open network connections.
	Network bool
	// Proxy, with Network false, is wisp's proxy, the one place a command
	// may connect to (ThroughProxy; network.go).
	Proxy NetworkProxy
	// UnixSockets is true when commands may open Unix sockets; false, a
	// socket through which another program would run a command for them
	// (systemd --user, tmux, docker) is out of reach.
	UnixSockets bool
	// Background is true when the processes a command starts may outlive
	// its run; false, every one ends with it.
	Background bool
	// Skipped are candidate roots that do not exist, on Linux (Landlock
	// grants only what exists; wisp makes the standard caches first, see
	// roots_make.go). On macOS a missing one stays a root.
	Skipped []string
	// Unprotected are protected paths the backend cannot keep unwritable on
	// this system, each with the reason. Backend.Check fills it; NewSpec
	// leaves it empty.
	Unprotected []Unprotected
	// DenyRead are the secrets no command may read (the defaults and
	// commandPolicy.sandbox.denyRead, as written and as real paths, less
	// what allowRead takes back); AllowRead are the allowRead entries inside
	// them, which the backend grants back. Unreadable are those it cannot
	// keep unreadable, with the reason (secrets.go).
	DenyRead, AllowRead []string
	Unreadable          []Uncovered
	// Env says which of wisp's variables a confined command goes without.
	Env EnvFilter

	git gitguard.Env // the person's git configs, for a core.hooksPath or include there, when Refresh looks again
}

// Unprotected is a protected path that a backend cannot cover here.
type Unprotected struct {
	Path string
	Why  string
}

// SpecOptions is what NewSpec needs to know about this run of wisp.
type SpecOptions struct {
	// LaunchDir is where wisp started: the project. Never a command's own cwd.
	LaunchDir string
	// WispHome is wisp's home (~/.wisp or $WISP_HOME).
	WispHome string
	// UserHome is the person's home directory, for ~ and the caches.
	UserHome string
	// WritablePaths is commandPolicy.sandbox.writablePaths: absolute, or ~/….
	WritablePaths []string
	// Granted are the folders granted with add_directory.
	Granted      []string
	AllowNetwork bool
	// AllowUnixSockets is commandPolicy.sandbox.allowUnixSockets.
	AllowUnixSockets bool
	// AllowBackground is commandPolicy.sandbox.allowBackground.
	AllowBackground bool
	// DenyRead, AllowRead and the environment's lists are the config's
	// commandPolicy.sandbox keys; APIKeyEnv is model.apiKeyEnv, whose
	// variable confined commands never see.
	DenyRead, AllowRead, EnvKeep, EnvDrop []string
	APIKeyEnv                             string
	// Getenv reads the environment wisp runs in (os.Getenv when nil).
	Getenv func(string) string
	// GOOS chooses whose temporary and cache folders count (runtime.GOOS
	// when empty), so tests can build a macOS spec on Linux.
	GOOS string
}

// ErrRootIsSlash is the error for / as a writable root.
var ErrRootIsSlash = errors.New("it is /, which would let every command write anywhere")

// NewSpec builds the spec for one run of wisp. Every root is resolved to
// its real path; the standard caches that are missing are made first
// (roots_make.go), and any other root that does not exist is skipped (kept,
// on macOS, where Seatbelt matches it once it appears). It fails
// on / as a root, on a relative configured path, and on a root inside a
// protected path such as wisp's home.
func NewSpec(o SpecOptions) (Spec, error) {
	o = o.withDefaults()
	if err := o.check(); err != nil {
		return Spec{}, err
	}
	spec := Spec{Network: o.AllowNetwork, UnixSockets: o.AllowUnixSockets, Background: o.AllowBackground}
	if err := spec.addLaunchDir(o.LaunchDir); err != nil {
		return Spec{}, err
	}
	e := newEnv(o)
	caches := e.cacheRoots()
	e.makeMissing(caches)
	if err := spec.addFound(append(e.tempDirs(), rootPaths(caches)...), o.GOOS == "darwin"); err != nil {
		return Spec{}, err
	}
	for _, list := range []struct {
		name  string
		paths []string
	}{{"commandPolicy.sandbox.writablePaths", o.WritablePaths}, {"a granted folder", o.Granted}} {
		if err := spec.addConfigured(list.name, list.paths, o.UserHome); err != nil {
			return Spec{}, err
		}
	}
	spec.git = gitguard.NewEnv(o.UserHome, o.Getenv)
	spec.protect(o.WispHome)
	spec.Env = DefaultEnvFilter(o.APIKeyEnv, o.EnvKeep, o.EnvDrop)
	if err := spec.addReads(o); err != nil {
		return Spec{}, err
	}
	if err := spec.checkReads(); err != nil {
		return Spec{}, err
	}
	return spec, spec.checkRootsOutsideProtected()
}

func (o SpecOptions) withDefaults() SpecOptions {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	return o
}

func (o SpecOptions) check() error {
	for _, f := range []struct{ name, path string }{
		{"the launch directory", o.LaunchDir}, {"wisp's home", o.WispHome}, {"your home directory", o.UserHome},
	} {
		if !filepath.IsAbs(f.path) {
			return fmt.Errorf("sandbox: %s must be an absolute path, not %q", f.name, f.path)
		}
	}
	return nil
}

func (s *Spec) addLaunchDir(dir string) error {
	real, err := paths.Realpath(dir)
	if err != nil {
		return fmt.Errorf("sandbox: resolve the launch directory: %w", err)
	}
	return s.addRoot(real, "the launch directory")
}

// addFound adds the temporary and cache folders that exist, and on macOS
// those that do not yet (keepMissing): a Seatbelt rule matches a path
// whether it exists or not, so a cache a tool makes later is writable
// when it does. They come from the environment, so a relative or empty
// one is not a folder to add.
func (s *Spec) addFound(dirs []string, keepMissing bool) error {
	for _, p := range dirs {
		if !filepath.IsAbs(p) {
			continue
		}
		if keepMissing && !paths.Exists(p) {
			if err := s.addRoot(paths.RealpathMissingOK(p), p); err != nil {
				return err
			}
			continue
		}
		if err := s.addIfExists(p, p); err != nil {
			return err
		}
	}
	return nil
}

func (s *Spec) addConfigured(name string, list []string, home string) error {
	for _, p := range list {
		abs := paths.ExpandHome(p, home)
		if !filepath.IsAbs(abs) {
			return fmt.Errorf("sandbox: %s %q is not an absolute path; write it as /… or ~/…", name, p)
		}
		if err := s.addIfExists(abs, name+" "+p); err != nil {
			return err
		}
	}
	return nil
}

func (s *Spec) addIfExists(p, what string) error {
	real, err := paths.Realpath(p)
	if errors.Is(err, fs.ErrNotExist) {
		s.Skipped = paths.AppendNew(s.Skipped, filepath.Clean(p))
		return nil
	}
	if err != nil {
		return fmt.Errorf("sandbox: resolve %s: %w", what, err)
	}
	return s.addRoot(real, what)
}

func (s *Spec) addRoot(real, what string) error {
	if real == "/" {
		return &RootError{What: what, Err: ErrRootIsSlash}
	}
	s.Roots = paths.AppendNew(s.Roots, real)
	return nil
}

// protect lists wisp's home and each repository root's git files.
func (s *Spec) protect(wispHome string) {
	forms := paths.ProtectedForms(wispHome)
	s.Home, s.Hidden = forms[0], forms
	s.Protected = paths.AppendNew(s.Protected, forms...)
	for _, root := range s.Roots {
		s.Protected = paths.AppendNew(s.Protected, gitguard.Protected(root, s.git)...)
	}
}

// Refresh returns the spec with the git files of every root that has
// become a repository since it was made, and those that have appeared
// since (an include, a submodule's hooks): a `git init` during a session
// would otherwise leave .git/hooks writable for the rest of it, and a hook
// planted there runs at the person's next commit, outside the sandbox. The
// command that makes the repository can still write them (Landlock cannot
// refuse a path that does not exist yet), and the put-back after it
// (SnapshotGit) undoes that; every command after it cannot. What was
// protected stays protected. The runner calls it before each confined
// command.
func (s Spec) Refresh() Spec {
	out := s
	out.Protected = append([]string(nil), s.Protected...)
	for _, root := range s.Roots {
		out.Protected = paths.AppendNew(out.Protected, gitguard.Protected(root, s.git)...)
	}
	return out
}

// checkRootsOutsideProtected refuses a root inside a protected path: the
// kernel's grant for the root would reopen what the protection closes.
func (s *Spec) checkRootsOutsideProtected() error {
	for _, r := range s.Roots {
		for _, p := range s.Protected {
			switch {
			case r == p:
				return &RootError{What: r, Err: errors.New("the sandbox keeps it unwritable")}
			case paths.Within(r, p):
				return &RootError{What: r, Err: fmt.Errorf("it lies inside %s, which the sandbox keeps unwritable", p)}
			}
		}
	}
	return nil
}

// RootError says why a folder cannot be a writable root.
type RootError struct {
	What string // which root: "the launch directory", a configured path
	Err  error
}

func (e *RootError) Error() string {
	return fmt.Sprintf("sandbox: %s cannot be a writable root: %v", e.What, e.Err)
}

func (e *RootError) Unwrap() error { return e.Err }

// Hint says what to do about it.
func (e *RootError) Hint() string {
	if errors.Is(e.Err, ErrRootIsSlash) {
		return "launch wisp in a project folder, and keep / out of commandPolicy.sandbox.writablePaths"
	}
	return "remove it from commandPolicy.sandbox.writablePaths, or set WISP_HOME elsewhere"
}

// SnapshotGit takes a hold on the state of git's control files under the
// spec's roots, which the runner puts back after the command
// (gitguard.Snapshot.PutBack). It fails, and no command should run, when
// wisp cannot check what it would have to (gitguard.UncheckedError).
func (s Spec) SnapshotGit() (*gitguard.Snapshot, error) {
	return gitguard.Scope{Roots: s.Roots, Home: s.Home, Env: s.git}.Snapshot()
}
