package sandbox

import (
	"strings"
	"sync"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// EnvironmentKey is the config key of the environment's lists.
const EnvironmentKey = "commandPolicy.sandbox.environment"

// defaultEnvDrop are the names of variables that hold secrets, or reach
// them (an agent's socket signs with the person's keys), or are wisp's own.
// A * matches any run of characters; names match without regard to case.
var defaultEnvDrop = []string{
	"*_KEY", "*_KEYS", "*_TOKEN", "*_TOKENS", "*_SECRET", "*_SECRETS", "*PASSWORD*", "*PASSWD*",
	"*_PASSPHRASE", "*_CREDENTIALS", "*_AUTH", "*_PAT", "*_COOKIE",
	"AWS_*", "GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN",
	"SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "WISP_*",
}

// defaultEnvKeep are names the patterns above would take that hold no
// secret and that tools need.
var defaultEnvKeep = []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_CA_BUNDLE"}

// EnvFilter says which of wisp's variables a confined command does not get.
type EnvFilter struct {
	// Drop are the default patterns and model.apiKeyEnv's name; Keep takes
	// names back from them; Force are the operator's drop entries, which
	// Keep does not take back.
	Drop, Keep, Force []string
}

// DefaultEnvFilter is the filter for the model's key variable apiKeyEnv
// and the operator's keep and drop lists.
func DefaultEnvFilter(apiKeyEnv string, keep, drop []string) EnvFilter {
	f := EnvFilter{
		Drop:  append([]string(nil), defaultEnvDrop...),
		Keep:  append(append([]string(nil), defaultEnvKeep...), keep...),
		Force: append([]string(nil), drop...),
	}
	if apiKeyEnv != "" {
		f.Drop = append(f.Drop, apiKeyEnv)
	}
	return f
}

// Drops reports whether a confined command goes without the variable name.
func (f EnvFilter) Drops(name string) bool {
	if matchesAny(f.Force, name) {
		return true
	}
	return matchesAny(f.Drop, name) && !matchesAny(f.Keep, name)
}

// Filter returns env (NAME=value entries) without the dropped variables,
// and the dropped names, in env's order: names only, never a value. It
// runs before every command of a session, over the same names and
// patterns, so each name's answer is kept for the filter that gave it
// (lastDrops).
func (f EnvFilter) Filter(env []string) (kept, dropped []string) {
	kept = make([]string, 0, len(env))
	key := strings.Join(f.Drop, "\x00") + "\x01" + strings.Join(f.Keep, "\x00") + "\x01" + strings.Join(f.Force, "\x00")
	lastDrops.Lock()
	defer lastDrops.Unlock()
	if lastDrops.key != key || len(lastDrops.drops) > 4096 {
		lastDrops.key, lastDrops.drops = key, map[string]bool{}
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drops, known := lastDrops.drops[name]
		if !known {
			drops = f.Drops(name)
			lastDrops.drops[name] = drops
		}
		if drops {
			dropped = paths.AppendNew(dropped, name)
			continue
		}
		kept = append(kept, kv)
	}
	return kept, dropped
}

// lastDrops are the names the last filter (its patterns joined, key) was
// asked about, and its answers.
var lastDrops struct {
	sync.Mutex
	key   string
	drops map[string]bool
}

// matchesAny reports whether name matches one of patterns (* as a run of
// any characters, case folded; nothing else is special). It runs for every
// variable against every pattern before each command, so it allocates
// nothing but the folded name.
func matchesAny(patterns []string, name string) bool {
	upper := strings.ToUpper(name)
	for _, p := range patterns {
		if starMatch(strings.ToUpper(p), upper) {
			return true
		}
	}
	return false
}

// starMatch reports whether s matches p, where * stands for any run of
// characters: the linear-time glob match, which goes back only to the last
// star.
func starMatch(p, s string) bool {
	px, sx := 0, 0
	starPx, starSx := -1, 0
	for px < len(p) || sx < len(s) {
		if px < len(p) {
			switch c := p[px]; {
			case c == '*':
				starPx, starSx = px, sx+1
				px++
				continue
			case sx < len(s) && s[sx] == c:
				px++
				sx++
				continue
			}
		}
		if starPx >= 0 && starSx <= len(s) {
			px, sx = starPx, starSx
			continue
		}
		return false
	}
	return true
}

// CommandEnv is env as a confined command gets it: without the variables
// the spec's filter drops.
func (s Spec) CommandEnv(env []string) []string {
	kept, _ := s.Env.Filter(env)
	return kept
}
