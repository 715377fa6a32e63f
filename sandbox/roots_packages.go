package sandbox

import (
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"path/filepath"
	"strings"
)

// The package managers' caches, each where the tool's own setting puts it:
// a command that installs packages writes there first (npm's EROFS on
// ~/.npm/_cacache). Their settings are read from the environment and
// their files, never by running the tool: `npm config get cache` costs a
// Node start (about a fifth of a second) on every spec. A cache under the
// per-user cache folder (pip's, poetry's, uv's, yarn 1's, pnpm's metadata)
// is already a root; one a variable moves elsewhere is listed here.

// packageCaches lists npm's, pnpm's store, yarn's, bun's, and the Python
// tools' caches that a variable moves.
func (e env) packageCaches() []cacheRoot {
	roots := []cacheRoot{e.npmCache(), e.pnpmStore(), e.yarnBerryCache(), e.bunCache()}
	for _, key := range []string{"YARN_CACHE_FOLDER", "UV_CACHE_DIR", "PIP_CACHE_DIR", "POETRY_CACHE_DIR"} {
		if v := e.getenv(key); filepath.IsAbs(v) {
			roots = append(roots, cacheRoot{v, found})
		}
	}
	return roots
}

// npmrc is the person's npm settings file ($npm_config_userconfig or
// ~/.npmrc), read by wisp, which a confined command may not read (it can
// hold a registry token).
func (e env) npmrc() map[string]string {
	path := e.npmSetting("userconfig")
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.home, ".npmrc")
	}
	return readSettings(path, "#;")
}

// npmSetting is npm's variable for key: npm reads npm_config_KEY in any
// case.
func (e env) npmSetting(key string) string {
	if v := e.getenv("npm_config_" + key); v != "" {
		return v
	}
	return e.getenv("NPM_CONFIG_" + strings.ToUpper(key))
}

// npmCache is npm's (and npx's) cache: $npm_config_cache, the npmrc's
// cache=, or ~/.npm, made when npm is on the PATH.
func (e env) npmCache() cacheRoot {
	if v := e.expand(e.npmSetting("cache")); filepath.IsAbs(v) {
		return cacheRoot{v, found}
	}
	if v := e.expand(e.npmrc()["cache"]); filepath.IsAbs(v) {
		return cacheRoot{v, found}
	}
	return cacheRoot{filepath.Join(e.home, ".npm"), e.madeIfTool("npm")}
}

// pnpmStore is pnpm's content-addressed store: $PNPM_HOME/store, else
// under the data folder. Only the store: $PNPM_HOME itself holds the
// global packages' programs, which are on the person's PATH.
func (e env) pnpmStore() cacheRoot {
	if v := e.expand(e.npmSetting("store_dir")); filepath.IsAbs(v) {
		return cacheRoot{v, found}
	}
	if v := e.expand(e.npmrc()["store-dir"]); filepath.IsAbs(v) {
		return cacheRoot{v, found}
	}
	if v := e.getenv("PNPM_HOME"); filepath.IsAbs(v) {
		return cacheRoot{filepath.Join(v, "store"), found}
	}
	data := e.orDefault("XDG_DATA_HOME", filepath.Join(e.home, ".local", "share"))
	if e.goos == "darwin" && e.getenv("XDG_DATA_HOME") == "" {
		data = filepath.Join(e.home, "Library")
	}
	return cacheRoot{filepath.Join(data, "pnpm", "store"), e.madeIfTool("pnpm")}
}

// yarnBerryCache is yarn 2+'s global cache ($YARN_GLOBAL_FOLDER/cache or
// ~/.yarn/berry/cache); yarn 1's is $YARN_CACHE_FOLDER or under the
// per-user cache folder.
func (e env) yarnBerryCache() cacheRoot {
	if v := e.getenv("YARN_GLOBAL_FOLDER"); filepath.IsAbs(v) {
		return cacheRoot{filepath.Join(v, "cache"), found}
	}
	return cacheRoot{filepath.Join(e.home, ".yarn", "berry", "cache"), found}
}

// bunCache is bun's install cache: $BUN_INSTALL_CACHE_DIR, else
// $BUN_INSTALL/install/cache or ~/.bun/install/cache, made when bun is on
// the PATH.
func (e env) bunCache() cacheRoot {
	if v := e.getenv("BUN_INSTALL_CACHE_DIR"); filepath.IsAbs(v) {
		return cacheRoot{v, found}
	}
	if v := e.getenv("BUN_INSTALL"); filepath.IsAbs(v) {
		return cacheRoot{filepath.Join(v, "install", "cache"), found}
	}
	return cacheRoot{filepath.Join(e.home, ".bun", "install", "cache"), e.madeIfTool("bun")}
}

func (e env) madeIfTool(name string) rootKind {
	if e.hasTool(name) {
		return makeDir
	}
	return found
}

// expand turns an npmrc's ~/… and ${HOME} into paths under the home.
func (e env) expand(v string) string {
	v = strings.ReplaceAll(strings.ReplaceAll(v, "${HOME}", e.home), "$HOME", e.home)
	return paths.ExpandHome(v, e.home)
}
