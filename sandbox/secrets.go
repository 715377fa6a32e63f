package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("sandbox: %s entry %q: %v", e.Key, e.Entry, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// Hint says what to do about it.
func (e *ReadError) Hint() string {
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
	allow = appendNew(allow, defaultExceptions(denied, o.UserHome)...)
	for _, d := range deny {
		if !holdsAnyOf(allow, d) {
			s.DenyRead = appendNew(s.DenyRead, d)
		}
	}
	for _, a := range allow {
		if holdsAnyOf(s.DenyRead, a) {
			s.AllowRead = appendNew(s.AllowRead, a)
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
	var r resolver
	for _, e := range defaultAllowRead {
		abs := expandHome(e, home)
		if info, err := os.Lstat(abs); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		forms := r.protectedForms(abs)
		if !anyHolds(denied, forms) {
			out = appendNew(out, forms...)
		}
	}
	return out
}

// anyHolds reports whether one of dirs holds, or lies inside, one of paths.
func anyHolds(dirs, paths []string) bool {
	for _, d := range dirs {
		for _, p := range paths {
			if within(p, d) || within(d, p) {
				return true
			}
		}
	}
	return false
}

// holdsAnyOf reports whether p lies within one of dirs.
func holdsAnyOf(dirs []string, p string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// readForms expands ~ and gives each entry as written and as its real path
// (a link's target is what the kernel checks).
func readForms(key string, entries []string, home string) ([]string, error) {
	var out []string
	var r resolver // the entries share their folders: each is resolved once
	for _, e := range entries {
		abs := expandHome(e, home)
		if !filepath.IsAbs(abs) {
			return nil, &ReadError{Key: key, Entry: e, Err: errors.New("it is not an absolute path")}
		}
		out = appendNew(out, r.protectedForms(abs)...)
	}
	return out, nil
}

// checkReads refuses a secret that exists inside a writable root, and lists
// as uncovered one that does not exist yet there, and one that holds a root
// (what lies in the root is readable).
func (s *Spec) checkReads() error {
	for _, d := range s.DenyRead {
		root := outermostRoot(d, s.Roots)
		_, err := os.Lstat(d)
		switch {
		case root != "" && err == nil:
			return &ReadError{Key: DenyReadKey, Entry: d, Err: fmt.Errorf("it lies inside the writable root %s: %w", root, ErrSecretInRoot)}
		case root != "" && errors.Is(err, fs.ErrNotExist):
			s.Unreadable = append(s.Unreadable, Uncovered{Path: d, Why: "it does not exist yet, and lies inside the writable root " + root + ", where a command could make it"})
		}
		for _, r := range s.Roots {
			if within(r, d) && r != d {
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
	return holdsAnyOf(s.DenyRead, p) && !holdsAnyOf(s.AllowRead, p)
}

// DisplayPath writes p with ~ for the person's home, as lists show it.
func DisplayPath(p, home string) string {
	if home != "" && home != "/" && within(p, home) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}
