package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// DenyReadKey and AllowReadKey are the config keys of the read lists, as
// messages name them.
const (
	DenyReadKey  = "commandPolicy.sandbox.denyRead"
	AllowReadKey = "commandPolicy.sandbox.allowRead"
)

// defaultDenyRead are the person's secrets on every system: keys, tokens,
// cloud credentials, password stores and browser profiles (cookies and
// saved passwords). docs/config.md says why each is there.
var defaultDenyRead = []string{
	"~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.config/gcloud", "~/.kube",
	"~/.docker/config.json", "~/.netrc", "~/.git-credentials", "~/.config/gh",
	"~/.password-store", "~/.local/share/keyrings",
	"~/.mozilla", "~/.config/google-chrome", "~/.config/chromium", "~/.config/BraveSoftware",
	// Beyond the list: other clouds and CLIs' token files, password
	// managers, and the package registries' tokens.
	"~/.oci", "~/.config/doctl", "~/.config/hcloud", "~/.terraform.d/credentials.tfrc.json",
	"~/.vault-token", "~/.config/op", "~/.config/Bitwarden CLI", "~/.local/share/kwalletd",
	"~/.npmrc", "~/.pypirc", "~/.gem/credentials", "~/.cargo/credentials.toml", "~/.cargo/credentials",
	"~/.config/hub", "~/.config/glab-cli", "~/.config/rclone", "~/.pgpass", "~/.my.cnf",
	"~/.config/Signal", "~/.thunderbird",
}

// defaultDenyReadDarwin are macOS's own stores, added on macOS.
var defaultDenyReadDarwin = []string{
	"~/Library/Keychains", "~/Library/Cookies",
	"~/Library/Application Support/Google/Chrome", "~/Library/Application Support/Firefox",
	"~/Library/Mail", "~/Library/Messages",
	"~/Library/Application Support/BraveSoftware", "~/Library/Application Support/Signal",
	"~/Library/Safari",
}

// defaultAllowRead are the files inside a default secret that commands may
// read unless the operator's denyRead names them (or a folder that holds
// them): ssh's known hosts and its config, without which git over ssh
// fails with "Host key verification failed". They hold host names and
// public keys; the keys themselves and the agent's socket stay hidden.
var defaultAllowRead = []string{"~/.ssh/known_hosts", "~/.ssh/config"}

// DefaultAllowRead returns the default exceptions, as written (~/…).
func DefaultAllowRead() []string { return append([]string(nil), defaultAllowRead...) }

// DefaultDenyRead returns the default list for goos, as written (~/…).
func DefaultDenyRead(goos string) []string {
	list := append([]string(nil), defaultDenyRead...)
	if goos == "darwin" {
		list = append(list, defaultDenyReadDarwin...)
	}
	return list
}

// Uncovered is a secret the sandbox cannot keep unreadable here, with why.
type Uncovered struct {
	Path string
	Why  string
}

// ErrSecretInRoot is wrapped when a denyRead entry that exists lies inside
// a writable root: a command may rename what it may write, and read it
// under its new name.
var ErrSecretInRoot = errors.New("a command can rename what lies in a writable root, and read it under its new name")

// ReadError says why a denyRead or allowRead entry cannot be used.
type ReadError struct {
	Key, Entry string
	Err        error
	// LaunchDir is set when the writable root that holds the entry
	// (ErrSecretInRoot) is the folder wisp started in: the home, /, a
	// folder around a secret. The person then reads one sentence about
	// where they started, not the name of a key they never set.
	LaunchDir string
}

func (e *ReadError) Error() string {
	if e.LaunchDir != "" {
		return fmt.Sprintf("sandbox: wisp will not start in %s: it holds the secret %s, and in the writable root %s "+
			"a command could rename it and read it; start wisp in a project folder instead", e.LaunchDir, e.Entry, e.LaunchDir)
	}
	return fmt.Sprintf("sandbox: %s entry %q: %v", e.Key, e.Entry, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// Hint says what to do about it.
func (e *ReadError) Hint() string {
	if e.LaunchDir != "" {
		return "cd into a project folder and start wisp there (wisp mcp takes --dir PROJECT); if commands may read " +
			e.Entry + ", list it in " + AllowReadKey
	}
	if errors.Is(e.Err, ErrSecretInRoot) {
		return "launch wisp in a project folder rather than around your secrets, or list the entry in " + AllowReadKey + " if commands may read it"
	}
	return "write each entry as /… or ~/…"
}

// addReads resolves the read lists: the defaults and denyRead, less what
// allowRead takes back, each as written and as its real path; allowRead
// entries inside a denied path, which the backend grants back.
func (s *Spec) addReads(o SpecOptions) error {
	deny, err := readForms(DenyReadKey, append(DefaultDenyRead(o.GOOS), o.DenyRead...), o.UserHome)
	if err != nil {
		return err
	}
	allow, err := readForms(AllowReadKey, o.AllowRead, o.UserHome)
	if err != nil {
		return err
	}
	denied, err := readForms(DenyReadKey, o.DenyRead, o.UserHome)
	if err != nil {
		return err
	}
	allow = paths.AppendNew(allow, defaultExceptions(denied, o.UserHome)...)
	for _, d := range deny {
		if !paths.WithinAny(d, allow) {
			s.DenyRead = paths.AppendNew(s.DenyRead, d)
		}
	}
	for _, a := range allow {
		if paths.WithinAny(a, s.DenyRead) {
			s.AllowRead = paths.AppendNew(s.AllowRead, a)
		}
	}
	return nil
}

// defaultExceptions are the default allowRead entries the operator's
// denyRead (denied, resolved) does not take back, each as written and as
// its real path. One that is a link is left out: given back, the link's
// target would be readable through it, and that target may be a key; the
// link itself reads by its target's own rules.
func defaultExceptions(denied []string, home string) []string {
	var out []string
	var r paths.Resolver
	for _, e := range defaultAllowRead {
		abs := paths.ExpandHome(e, home)
		if info, err := os.Lstat(abs); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		forms := r.ProtectedForms(abs)
		if !anyHolds(denied, forms) {
			out = paths.AppendNew(out, forms...)
		}
	}
	return out
}

// anyHolds reports whether one of dirs holds, or lies inside, one of ps.
func anyHolds(dirs, ps []string) bool {
	for _, d := range dirs {
		for _, p := range ps {
			if paths.Within(p, d) || paths.Within(d, p) {
				return true
			}
		}
	}
	return false
}

// readForms expands ~ and gives each entry as written and as its real path
// (a link's target is what the kernel checks).
func readForms(key string, entries []string, home string) ([]string, error) {
	var out []string
	var r paths.Resolver // the entries share their folders: each is resolved once
	for _, e := range entries {
		abs := paths.ExpandHome(e, home)
		if !filepath.IsAbs(abs) {
			return nil, &ReadError{Key: key, Entry: e, Err: errors.New("it is not an absolute path")}
		}
		out = paths.AppendNew(out, r.ProtectedForms(abs)...)
	}
	return out, nil
}

// checkReads refuses a secret that exists inside a writable root, and lists
// as uncovered one that does not exist yet there, and one that holds a root
// (what lies in the root is readable).
func (s *Spec) checkReads() error {
	for _, d := range s.DenyRead {
		root := paths.OutermostRoot(d, s.Roots)
		_, err := os.Lstat(d)
		switch {
		case root != "" && err == nil:
			re := &ReadError{Key: DenyReadKey, Entry: d, Err: fmt.Errorf("it lies inside the writable root %s: %w", root, ErrSecretInRoot)}
			if launch := s.Roots[0]; paths.Within(d, launch) { // the launch directory is the first root
				re.LaunchDir = launch
			}
			return re
		case root != "" && errors.Is(err, fs.ErrNotExist):
			s.Unreadable = append(s.Unreadable, Uncovered{Path: d, Why: "it does not exist yet, and lies inside the writable root " + root + ", where a command could make it"})
		}
		for _, r := range s.Roots {
			if paths.Within(r, d) && r != d {
				s.Unreadable = append(s.Unreadable, Uncovered{Path: d, Why: "the writable root " + r + " lies inside it, and stays readable"})
			}
		}
	}
	return nil
}

// HidesRead reports whether p, a real path, lies under a denied path and
// no allowRead entry gives it back: a read of it refused is the sandbox's
// keeping a secret.
func (s Spec) HidesRead(p string) bool {
	return paths.WithinAny(p, s.DenyRead) && !paths.WithinAny(p, s.AllowRead)
}

// DisplayPath writes p with ~ for the person's home, as lists show it.
func DisplayPath(p, home string) string {
	if home != "" && home != "/" && paths.Within(p, home) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}
