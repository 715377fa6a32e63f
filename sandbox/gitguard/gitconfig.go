package gitguard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// gitEntry is one setting of a git config file: section, subsection (as
// written, case kept), key (lowercase) and value.
type gitEntry struct {
	section, subsection, key, value string
	hasValue                        bool
}

// name is the setting's name as git's documentation writes it, with the
// subsection kept: remote.origin.url.
func (e gitEntry) name() string {
	if e.subsection != "" {
		return e.section + "." + e.subsection + "." + e.key
	}
	return e.section + "." + e.key
}

// errGitConfig says a config file does not parse; git itself refuses such
// a file, but wisp does not rely on that and keeps only what parsed.
var errGitConfig = errors.New("the git config file does not parse")

// parseGitConfig reads a git config file as git's own parser does
// (config.c): sections `[s]`, `[s "sub"]` and the old `[s.sub]`, keys with
// or without a value, quotes, escapes, line continuations and comments. It
// returns what parsed before any error.
func parseGitConfig(data []byte) ([]gitEntry, error) {
	p := &configParser{src: string(data)}
	if strings.HasPrefix(p.src, "\ufeff") {
		p.pos = len("\ufeff")
	}
	for {
		c, ok := p.next()
		switch {
		case !ok:
			return p.out, nil
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			if err := p.header(); err != nil {
				return p.out, err
			}
		case isAlpha(c):
			if err := p.entry(c); err != nil {
				return p.out, err
			}
		default:
			return p.out, errGitConfig
		}
	}
}

type configParser struct {
	src                 string
	pos                 int
	section, subsection string
	out                 []gitEntry
}

func (p *configParser) next() (byte, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	c := p.src[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.src) && p.src[p.pos] == '\n' { // as git reads CRLF
		p.pos++
		c = '\n'
	}
	return c, true
}

func (p *configParser) peek() (byte, bool) {
	if p.pos >= len(p.src) {
		return 0, false
	}
	return p.src[p.pos], true
}

func (p *configParser) skipLine() {
	for c, ok := p.next(); ok && c != '\n'; c, ok = p.next() {
	}
}

// header reads a section header after its '['; what follows the ']' on
// the same line is parsed as the rest of the file is.
func (p *configParser) header() error {
	var name strings.Builder
	for {
		c, ok := p.next()
		switch {
		case !ok || c == '\n':
			return errGitConfig
		case c == ']':
			return p.setSection(name.String(), "", false)
		case c == ' ' || c == '\t':
			return p.quotedSubsection(name.String())
		case isAlnum(c) || c == '-' || c == '.':
			name.WriteByte(lower(c))
		default:
			return errGitConfig
		}
	}
}

func (p *configParser) quotedSubsection(section string) error {
	for c, ok := p.peek(); ok && (c == ' ' || c == '\t'); c, ok = p.peek() {
		p.pos++
	}
	if c, ok := p.next(); !ok || c != '"' {
		return errGitConfig
	}
	var sub strings.Builder
	for {
		c, ok := p.next()
		switch {
		case !ok || c == '\n':
			return errGitConfig
		case c == '"':
			if c, ok := p.next(); !ok || c != ']' {
				return errGitConfig
			}
			return p.setSection(section, sub.String(), true)
		case c == '\\':
			e, ok := p.next()
			if !ok || e == '\n' {
				return errGitConfig
			}
			sub.WriteByte(e)
		default:
			sub.WriteByte(c)
		}
	}
}

// setSection takes [a.b] as section a, subsection b (lowercased, as git
// does for the old form).
func (p *configParser) setSection(name, sub string, quoted bool) error {
	if !quoted {
		if s, rest, ok := strings.Cut(name, "."); ok {
			name, sub = s, rest
		}
	}
	if name == "" {
		return errGitConfig
	}
	p.section, p.subsection = name, sub
	return nil
}

// entry reads `key [= value]` from its first letter.
func (p *configParser) entry(first byte) error {
	if p.section == "" {
		return errGitConfig
	}
	key := []byte{lower(first)}
	for c, ok := p.peek(); ok && (isAlnum(c) || c == '-'); c, ok = p.peek() {
		key = append(key, lower(c))
		p.pos++
	}
	for c, ok := p.peek(); ok && (c == ' ' || c == '\t'); c, ok = p.peek() {
		p.pos++
	}
	e := gitEntry{section: p.section, subsection: p.subsection, key: string(key)}
	c, ok := p.next()
	switch {
	case !ok || c == '\n':
	case c == '#' || c == ';':
		p.skipLine()
	case c == '=':
		v, err := p.value()
		if err != nil {
			return err
		}
		e.value, e.hasValue = v, true
	default:
		return errGitConfig
	}
	p.out = append(p.out, e)
	return nil
}

// value reads a value up to the end of its (last continued) line.
func (p *configParser) value() (string, error) {
	var v strings.Builder
	quoted, space := false, 0
	for {
		c, ok := p.next()
		switch {
		case !ok || c == '\n':
			if quoted {
				return "", errGitConfig
			}
			return trimTrailing(v.String(), space), nil
		case !quoted && (c == '#' || c == ';'):
			p.skipLine()
			return trimTrailing(v.String(), space), nil
		case !quoted && (c == ' ' || c == '\t'):
			if v.Len() > 0 {
				v.WriteByte(' ') // as git does, a tab within a value reads as a space
				space++
			}
			continue
		case c == '"':
			quoted = !quoted
		case c == '\\':
			e, ok := p.next()
			switch {
			case !ok:
				return "", errGitConfig
			case e == '\n':
				continue
			case e == 'n':
				v.WriteByte('\n')
			case e == 't':
				v.WriteByte('\t')
			case e == 'b':
				v.WriteByte('\b')
			case e == '\\' || e == '"':
				v.WriteByte(e)
			default:
				return "", errGitConfig
			}
		default:
			v.WriteByte(c)
		}
		space = 0
	}
}

func trimTrailing(s string, n int) string { return s[:len(s)-n] }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// formatGitConfig writes entries back in git's syntax, every value quoted
// and escaped, so that git reads exactly what was kept.
func formatGitConfig(entries []gitEntry) []byte {
	var b strings.Builder
	section, sub, started := "", "", false
	for _, e := range entries {
		if !started || e.section != section || e.subsection != sub {
			section, sub, started = e.section, e.subsection, true
			if sub == "" {
				b.WriteString("[" + section + "]\n")
			} else {
				b.WriteString("[" + section + " " + quoteGitValue(sub) + "]\n")
			}
		}
		b.WriteString("\t" + e.key)
		if e.hasValue {
			b.WriteString(" = " + quoteGitValue(e.value))
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func quoteGitValue(s string) string { return `"` + gitValueEscaper().Replace(s) + `"` }

// gitValueEscaper is made once, when first needed: a replacer built for
// each value made the put-back of a config with many settings take seconds.
var gitValueEscaper = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
})

// gitConfigSafe reports whether git reads e as data only: it names no
// program, hook, filter, helper, include, other repository or path that
// git would run or read configuration from. A repository made by `git
// init`, `git clone`, `git worktree add` or `git submodule add` holds only
// such settings; anything else a confined command wrote is taken out.
func gitConfigSafe(e gitEntry) bool {
	keys, ok := safeGitKeys[e.section]
	if !ok || (e.subsection != "") != keys.sub {
		return false
	}
	if !keys.keys[e.key] {
		return false
	}
	if e.section == "submodule" && e.key == "update" {
		switch strings.ToLower(e.value) {
		case "checkout", "rebase", "merge", "none":
			return true
		}
		return false // "!command" runs a command
	}
	return true
}

type safeKeys struct {
	sub  bool // whether the section takes a subsection
	keys map[string]bool
}

func keySet(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

var safeGitKeys = map[string]safeKeys{
	"core": {keys: keySet("repositoryformatversion", "filemode", "bare", "logallrefupdates", "ignorecase",
		"precomposeunicode", "symlinks", "worktree", "sparsecheckout", "sparsecheckoutcone", "autocrlf", "eol")},
	"remote":     {sub: true, keys: keySet("url", "pushurl", "fetch", "push", "tagopt", "mirror", "prune", "promisor", "partialclonefilter")},
	"branch":     {sub: true, keys: keySet("remote", "merge", "rebase", "pushremote")},
	"submodule":  {sub: true, keys: keySet("url", "active", "branch", "update", "shallow", "ignore", "fetchrecursesubmodules")},
	"extensions": {keys: keySet("objectformat", "worktreeconfig", "refstorage", "preciousobjects", "partialclone", "noop")},
	"user":       {keys: keySet("name", "email")},
	"init":       {keys: keySet("defaultbranch")},
	"pull":       {keys: keySet("rebase", "ff")},
}

// gitConfigFile is a git config file as wisp read it, once: what parsed
// of it, and, when it is too large to read, why (UncheckedError).
type gitConfigFile struct {
	path     string
	entries  []gitEntry
	tooLarge error
}

func loadConfig(path string) gitConfigFile {
	c := gitConfigFile{path: path}
	data, err := readConfig(path)
	switch {
	case errors.Is(err, errTooLarge):
		if info, err := os.Stat(path); err == nil {
			c.tooLarge = &UncheckedError{Path: path, Size: info.Size()}
		}
	case err == nil:
		c.entries, _ = parseGitConfig(data)
	}
	return c
}

// includes returns the files the config includes (include.path and every
// includeIf.*.path, whatever its condition), made absolute as git does:
// against the including file's folder, ~ for the home.
func (c gitConfigFile) includes(home string) []string {
	var out []string
	for _, e := range c.entries {
		if e.key != "path" || !e.hasValue || e.value == "" || (e.section != "include" && e.section != "includeif") {
			continue
		}
		p := paths.ExpandHome(e.value, home)
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(c.path), p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// value returns the last value the config gives section.key (no
// subsection), or "".
func (c gitConfigFile) value(section, key string) string {
	value := ""
	for _, e := range c.entries {
		if e.section == section && e.subsection == "" && e.key == key && e.hasValue {
			value = e.value
		}
	}
	return value
}

// gitConfigValue is loadConfig(config).value(section, key).
func gitConfigValue(config, section, key string) string {
	return loadConfig(config).value(section, key)
}

// maxControlFile bounds what wisp reads of one git config file, and keeps
// of any control file to put it back: git's own config files are a few
// kilobytes. A larger control file is compared by its digest (fileState);
// a larger config, whose includes and hooks wisp could not follow, stops
// every confined command until it is made smaller (gitConfigFile).
const maxControlFile = 1 << 20

// UncheckedError says why no confined command runs: a git config file
// that git reads for what it runs is too large for wisp to follow, so a
// hook or include it names could change unseen.
type UncheckedError struct {
	Path string
	Size int64
}

func (e *UncheckedError) Error() string {
	return fmt.Sprintf("sandbox: wisp cannot check the git config %s: it is %s, more than the %s wisp reads of one, "+
		"so a hook or include it names could be changed unseen; git's own config files are a few kilobytes: make it smaller",
		e.Path, sizeText(e.Size), sizeText(maxControlFile))
}

// readConfig reads a git config file as git does, through links (a
// dotfile manager's ~/.gitconfig is one), at most maxControlFile bytes.
// Its relative includes are still taken against the folder of the name
// git was given, as git takes them.
func readConfig(config string) ([]byte, error) {
	data, err := readSmall(config)
	if !errors.Is(err, errNotRegular) {
		return data, err
	}
	real, err := paths.Realpath(config) // a link, most likely
	if err != nil {
		return nil, err
	}
	return readSmall(real)
}

// readSmall reads a regular file of at most maxControlFile bytes, never
// through a link at its last component and never blocking on a FIFO a
// command put in a file's place.
func readSmall(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxControlFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxControlFile {
		return nil, errTooLarge
	}
	return data, nil
}

var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("larger than git's control files are")
)
