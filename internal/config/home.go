// Package config owns wisp's home (~/.wisp, or $WISP_HOME) and its
// config.json: the schema, the defaults, validation, and `config set`.
//
// It sits at the bottom of wisp's imports: it imports no other wisp package.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// HomeEnv names the environment variable that moves wisp's home.
const HomeEnv = "WISP_HOME"

// Home is wisp's home directory and the places inside it.
type Home struct {
	// Dir is the home's real path: no link on the way. Every read and write
	// of wisp's own goes through it, so a link swapped after start-up
	// cannot lead wisp to another home.
	Dir string
	// Given is the home as $WISP_HOME or ~ named it (absolute), for Check
	// to walk; empty when it is Dir.
	Given string
}

// ResolveHome finds wisp's home, $WISP_HOME when set, else ~/.wisp, and
// resolves it to its real path once (through its nearest existing
// ancestor when it does not exist yet). getenv and userHome are injected
// so tests need not touch the real ones. Whether the home may be trusted
// is Check's to say.
func ResolveHome(getenv func(string) string, userHome func() (string, error)) (Home, error) {
	dir := getenv(HomeEnv)
	if dir == "" {
		home, err := userHome()
		if err != nil {
			return Home{}, fmt.Errorf("find your home directory (set %s to choose wisp's home): %w", HomeEnv, err)
		}
		dir = filepath.Join(home, ".wisp")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Home{}, fmt.Errorf("resolve wisp's home %q: %w", dir, err)
	}
	return Home{Dir: realpathMissingOK(abs), Given: abs}, nil
}

// given is the home as named, for Check.
func (h Home) given() string {
	if h.Given == "" {
		return h.Dir
	}
	return h.Given
}

// DefaultHome resolves the home from the process environment.
func DefaultHome() (Home, error) { return ResolveHome(os.Getenv, os.UserHomeDir) }

func (h Home) ConfigFile() string    { return filepath.Join(h.Dir, "config.json") }
func (h Home) ApprovalsFile() string { return filepath.Join(h.Dir, "approvals.json") }
func (h Home) PendingDir() string    { return filepath.Join(h.Dir, "pending") }
func (h Home) LogsDir() string       { return filepath.Join(h.Dir, "logs") }
func (h Home) AuditFile() string     { return filepath.Join(h.Dir, "logs", "audit.jsonl") }
func (h Home) OutputsDir() string    { return filepath.Join(h.Dir, "outputs") }
func (h Home) ThreadsDir() string    { return filepath.Join(h.Dir, "threads") }

// SandboxProbeFile remembers what the sandbox's probe of this system found,
// so that not every wisp process pays for probing again.
func (h Home) SandboxProbeFile() string { return filepath.Join(h.Dir, "cache", "sandbox-probe.json") }

// Ensure creates the home with mode 0700 when it is missing, and the
// subdirectory sub (if any) inside it, also 0700. An existing home keeps
// its mode: Check refuses a loose one rather than wisp changing it. What
// it leaves is checked again, as Check would: a folder another user made
// in its place after Check looked (under /tmp, say) is refused, not used.
func (h Home) Ensure(sub ...string) (string, error) {
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		return "", fmt.Errorf("create wisp's home %s: %w", h.Dir, err)
	}
	if err := ensured("wisp's home "+h.Dir, h.Dir); err != nil {
		return "", err
	}
	dir := filepath.Join(append([]string{h.Dir}, sub...)...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	if dir == h.Dir {
		return dir, nil
	}
	return dir, ensured(dir, dir)
}

// ensured checks a folder Ensure made or found: a folder, not a link,
// ours, and not writable by others.
func ensured(subject, dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("inspect %s: %w", dir, err)
	}
	if !info.IsDir() {
		return &UnsafeError{Path: subject, Problem: "is not a folder (" + kindOf(info) + ")", Fix: "move it away so that wisp can create the folder there"}
	}
	return checkOwned(subject, dir, info, os.Geteuid(), "700")
}

// ErrHomeMissing says the home has not been created yet.
var ErrHomeMissing = errors.New("wisp's home does not exist yet")
