package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// env is the environment NewSpec reads, with the person's home beside it.
type env struct {
	getenv func(string) string
	home   string
	goos   string
}

// tempDirs lists the temporary directories: $TMPDIR, /tmp, /var/tmp, and on
// Linux /dev/shm (where POSIX shared memory and semaphores live, which
// Python's multiprocessing needs); on macOS /private/tmp and the per-user
// folder that holds $TMPDIR and the per-user cache (/var/folders/xx/yyy).
func (e env) tempDirs() []string {
	dirs := []string{e.getenv("TMPDIR"), "/tmp", "/var/tmp"}
	switch e.goos {
	case "linux":
		dirs = append(dirs, "/dev/shm")
	case "darwin":
		dirs = append(dirs, "/private/tmp", "/private/var/tmp", darwinUserDir(e.getenv("TMPDIR")))
	}
	return dirs
}

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

// cacheDirs lists the per-user cache directory and the toolchain caches:
// Cargo's registry and git checkouts, Go's module and build caches.
func (e env) cacheDirs() []string {
	cargo := e.orDefault("CARGO_HOME", filepath.Join(e.home, ".cargo"))
	dirs := []string{e.userCacheDir()}
	if e.goos == "darwin" {
		dirs = append(dirs, filepath.Join(e.home, "Library", "Caches"))
	}
	dirs = append(dirs, filepath.Join(cargo, "registry"), filepath.Join(cargo, "git"))
	return append(dirs, e.goCaches()...)
}

// userCacheDir is $XDG_CACHE_HOME or ~/.cache, on every system: tools that
// follow XDG use it on macOS too.
func (e env) userCacheDir() string {
	return e.orDefault("XDG_CACHE_HOME", filepath.Join(e.home, ".cache"))
}

// goCaches finds GOMODCACHE and GOCACHE as `go env` would, without running
// it: the environment first, then the file `go env -w` writes, then the
// defaults. GOCACHE=off means no build cache.
func (e env) goCaches() []string {
	file := e.goEnvFile()
	get := func(key string) string {
		if v := e.getenv(key); v != "" {
			return v
		}
		return file[key]
	}
	modcache := get("GOMODCACHE")
	if modcache == "" {
		modcache = filepath.Join(e.firstGOPATH(get("GOPATH")), "pkg", "mod")
	}
	gocache := get("GOCACHE")
	if gocache == "" {
		gocache = filepath.Join(e.platformCacheDir(), "go-build")
	}
	if gocache == "off" {
		return []string{modcache}
	}
	return []string{modcache, gocache}
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
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	settings := map[string]string{}
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if k, v, ok := strings.Cut(strings.TrimSpace(scanner.Text()), "="); ok && !strings.HasPrefix(k, "#") {
			settings[k] = v
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
