package sandbox

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// onDarwin: only a Mac is asked for its per-user folders.
const onDarwin = runtime.GOOS == "darwin"

// env is the environment NewSpec reads, with the person's home beside it.
type env struct {
	getenv func(string) string
	home   string
	goos   string
	// darwinDirs gives macOS's per-user temporary and cache folders as the
	// system names them (confstr's _CS_DARWIN_USER_TEMP_DIR and
	// _CS_DARWIN_USER_CACHE_DIR); nil asks the system, on macOS only.
	darwinDirs func() (temp, cache string)
}

func newEnv(o SpecOptions) env {
	return env{getenv: o.Getenv, home: o.UserHome, goos: o.GOOS}
}

// tempDirs lists the temporary directories: $TMPDIR, /tmp, /var/tmp, and on
// Linux /dev/shm (where POSIX shared memory and semaphores live, which
// Python's multiprocessing needs); on macOS /private/tmp, the per-user
// temporary and cache folders as the system names them, and the folder
// that holds them (/var/folders/xx/yyy): $TMPDIR is unset in ssh sessions,
// launchd jobs and cron, and may be customised, and the xcrun shims behind
// /usr/bin/git, python3 and clang write their cache in the system's.
func (e env) tempDirs() []string {
	dirs := []string{e.getenv("TMPDIR"), "/tmp", "/var/tmp"}
	switch e.goos {
	case "linux":
		dirs = append(dirs, "/dev/shm")
	case "darwin":
		temp, cache := e.systemDarwinDirs()
		dirs = append(dirs, "/private/tmp", "/private/var/tmp", darwinUserDir(e.getenv("TMPDIR")),
			temp, cache, darwinUserDir(temp))
	}
	return dirs
}

func (e env) systemDarwinDirs() (temp, cache string) {
	if e.darwinDirs != nil {
		return e.darwinDirs()
	}
	if e.goos != "darwin" || !onDarwin {
		return "", ""
	}
	return askDarwinDirs()
}

// askDarwinDirs asks getconf, once per process: x/sys/unix has no confstr,
// and the answer does not change while wisp runs.
var askDarwinDirs = sync.OnceValues(func() (string, string) {
	ask := func(name string) string {
		out, err := exec.Command("/usr/bin/getconf", name).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	return ask("DARWIN_USER_TEMP_DIR"), ask("DARWIN_USER_CACHE_DIR")
})

// darwinUserDir gives /var/folders/xx/yyy for a $TMPDIR of
// /var/folders/xx/yyy/T/, the folder that also holds the per-user cache
// (C/), or "" for any other $TMPDIR.
func darwinUserDir(tmpdir string) string {
	t := filepath.Clean(tmpdir)
	if filepath.Base(t) != "T" || !strings.Contains(t, "/var/folders/") {
		return ""
	}
	return filepath.Dir(t)
}

// cacheRoot is one cache wisp lets commands write, and whether wisp makes
// it when it is missing (makeRoot): only the standard places of a tool the
// person has, never one the environment or a tool's setting names.
type cacheRoot struct {
	path string
	make rootKind
}

type rootKind int

const (
	found    rootKind = iota // used when it is there; never made
	makeDir                  // a folder wisp makes when missing
	makeFile                 // a file wisp makes (empty) when missing: a lock file
)

// cacheRoots lists the per-user cache folders and each tool's caches and
// lock files: Go's, Cargo's and rustup's, and the package managers'.
func (e env) cacheRoots() []cacheRoot {
	roots := []cacheRoot{{e.userCacheDir(), e.madeUnless("XDG_CACHE_HOME", makeDir)}}
	if e.goos == "darwin" {
		for _, dir := range []string{"Caches", "Developer", "org.swift.swiftpm"} {
			roots = append(roots, cacheRoot{filepath.Join(e.home, "Library", dir), found})
		}
	}
	// Cargo's lock files and rustup's folders last: a refusal's note names
	// the first roots, and the caches people know come first.
	roots = append(roots, e.goCaches()...)
	roots = append(roots, e.packageCaches()...)
	roots = append(roots, e.cargoRoots()...)
	return append(roots, e.rustupRoots()...)
}

// madeUnless is kind, or found when the variable names the place.
func (e env) madeUnless(key string, kind rootKind) rootKind {
	if filepath.IsAbs(e.getenv(key)) {
		return found
	}
	return kind
}

// cargoRoots are Cargo's registry and git checkouts and the lock files it
// takes beside them ($CARGO_HOME/.package-cache, .package-cache-mutate,
// and .global-cache, the last-use database). The rest of $CARGO_HOME stays
// unwritable: bin/ is on the person's PATH, config.toml names programs
// cargo runs. They are made when $CARGO_HOME is there.
func (e env) cargoRoots() []cacheRoot {
	cargo := e.orDefault("CARGO_HOME", filepath.Join(e.home, ".cargo"))
	dir, file := found, found
	if isDir(cargo) {
		dir, file = makeDir, makeFile
	}
	roots := []cacheRoot{{filepath.Join(cargo, "registry"), dir}, {filepath.Join(cargo, "git"), dir}}
	for _, lock := range []string{".package-cache", ".package-cache-mutate", ".global-cache"} {
		roots = append(roots, cacheRoot{filepath.Join(cargo, lock), file})
	}
	return roots
}

// rustupRoots are what rustup writes when it installs or updates a
// toolchain: settings.toml (the default toolchain, written in place), and
// its toolchains, downloads, tmp and update-hashes folders. Its
// settings.toml is never made: rustup's installer writes it, and an empty
// one is not rustup's.
func (e env) rustupRoots() []cacheRoot {
	rustup := e.orDefault("RUSTUP_HOME", filepath.Join(e.home, ".rustup"))
	dir := found
	if isDir(rustup) {
		dir = makeDir
	}
	roots := []cacheRoot{{filepath.Join(rustup, "settings.toml"), found}}
	for _, sub := range []string{"toolchains", "downloads", "tmp", "update-hashes"} {
		roots = append(roots, cacheRoot{filepath.Join(rustup, sub), dir})
	}
	return roots
}

// userCacheDir is $XDG_CACHE_HOME or ~/.cache, on every system: tools that
// follow XDG use it on macOS too.
func (e env) userCacheDir() string {
	return e.orDefault("XDG_CACHE_HOME", filepath.Join(e.home, ".cache"))
}

// goCaches finds GOMODCACHE and GOCACHE as `go env` would, without running
// it: the environment first, then the file `go env -w` writes, then the
// defaults, which are made when go is on the PATH. GOCACHE=off means no
// build cache.
func (e env) goCaches() []cacheRoot {
	file := e.goEnvFile()
	get := func(key string) string {
		if v := e.getenv(key); v != "" {
			return v
		}
		return file[key]
	}
	made := found
	if e.hasTool("go") {
		made = makeDir
	}
	modcache := cacheRoot{get("GOMODCACHE"), found}
	if modcache.path == "" {
		gopath := get("GOPATH")
		modcache = cacheRoot{filepath.Join(e.firstGOPATH(gopath), "pkg", "mod"), made}
		if gopath != "" {
			modcache.make = found
		}
	}
	gocache := cacheRoot{get("GOCACHE"), found}
	if gocache.path == "" {
		gocache = cacheRoot{filepath.Join(e.platformCacheDir(), "go-build"), made}
	}
	if gocache.path == "off" {
		return []cacheRoot{modcache}
	}
	return []cacheRoot{modcache, gocache}
}

func (e env) firstGOPATH(gopath string) string {
	if first, _, _ := strings.Cut(gopath, string(os.PathListSeparator)); first != "" {
		return first
	}
	return filepath.Join(e.home, "go")
}

// platformCacheDir is os.UserCacheDir for e.goos: where Go keeps GOCACHE.
func (e env) platformCacheDir() string {
	if e.goos == "darwin" {
		return filepath.Join(e.home, "Library", "Caches")
	}
	return e.userCacheDir()
}

// goEnvFile reads the settings `go env -w` keeps ($GOENV, or go/env in the
// user config directory). A missing or unreadable file gives no settings.
func (e env) goEnvFile() map[string]string {
	path := e.getenv("GOENV")
	if path == "off" {
		return nil
	}
	if path == "" {
		path = filepath.Join(e.userConfigDir(), "go", "env")
	}
	return readSettings(path, "#")
}

// readSettings reads KEY=VALUE lines (spaces around = allowed), skipping
// those that start with one of the comment marks. A missing or unreadable
// file gives no settings.
func readSettings(path, comments string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	settings := map[string]string{}
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.ContainsRune(comments, rune(line[0])) {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			settings[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return settings
}

func (e env) userConfigDir() string {
	if e.goos == "darwin" {
		return filepath.Join(e.home, "Library", "Application Support")
	}
	return e.orDefault("XDG_CONFIG_HOME", filepath.Join(e.home, ".config"))
}

// orDefault is $key when it is set to an absolute path, else def: a
// relative XDG path is invalid by the specification and ignored.
func (e env) orDefault(key, def string) string {
	if v := e.getenv(key); filepath.IsAbs(v) {
		return v
	}
	return def
}

// hasTool reports whether name is an executable file in a folder of the
// person's $PATH, as a shell would find it.
func (e env) hasTool(name string) bool {
	for _, dir := range filepath.SplitList(e.getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

func rootPaths(roots []cacheRoot) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, r.path)
	}
	return out
}
