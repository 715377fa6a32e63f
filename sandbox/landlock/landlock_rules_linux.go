package landlock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// landlockConfigs holds go-landlock's preset for each ABI version, index =
// version, so the helper asks for exactly what the kernel offers.
var landlockConfigs = []landlock.Config{{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4,
	landlock.V5, landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// erratumScopingFixed is the bit landlock_create_ruleset's errata query sets
// once the kernel has the fix for signal scoping across threads.
const erratumScopingFixed = 0x2

// kernelFeatures asks the kernel which Landlock ABI it offers.
func kernelFeatures() (sandbox.LandlockFeatures, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return sandbox.LandlockFeatures{}, err
	}
	errata, err := ll.LandlockGetErrata()
	f := sandbox.LandlockFeaturesOf(abi, err == nil && errata&erratumScopingFixed != 0)
	f.SocketFilter = socketFilter
	return f, nil
}

// landlockConfig is what the helper restricts: every filesystem right of
// the ABI (connecting to Unix sockets by path only where that keeps
// them, sandbox.UnixByDomain: with allowUnixSockets it is left open), the
// network rights when the network is off, and scoping. Denials after the
// exec go to the kernel's audit log where audit is on.
func landlockConfig(f sandbox.LandlockFeatures, network bool, sockets sandbox.UnixGuard) landlock.Config {
	cfg := landlockConfigs[min(f.ABI, len(landlockConfigs)-1)]
	if sockets != sandbox.UnixByDomain {
		cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	}
	if network {
		cfg.HandledAccessNet = 0
	}
	if !f.Scoping {
		cfg.Scoped = 0
	}
	return cfg.EnableLoggingForSubprocesses().BestEffort()
}

const (
	readRights     = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	fileReadRights = ll.AccessFSExecute | ll.AccessFSReadFile
	fileRights     = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	deviceRights   = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// In /dev a command reads and writes only what programs need: the null,
// zero and random devices, its controlling terminal (/dev/tty), new
// pseudo-terminals' masters (/dev/ptmx), the shared-memory folders, and
// the terminals on its own standard streams. Everything else there stays
// out of reach, even for reading: another session's /dev/pts/N (a fake
// `Password: ` printed there reads back what the person types), or a disk,
// which read raw holds every file.
var (
	// terminalDevices may be written and take ioctls, so that programs can
	// write to /dev/null and talk to the terminal (stty, less, ssh's prompts).
	terminalDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx"}
	readableDevices = []string{"/dev/random", "/dev/urandom"}
	// deviceFolders hold files, not devices: they read as any folder does.
	deviceFolders = []string{"/dev/shm", "/dev/mqueue", "/dev/hugepages"}
)

// landlockRules grants reading and executing everywhere but /dev, where
// only the devices above, and but the secrets (--deny-read), of which
// only what --allow-read gives back; everything but device ioctls under
// the roots; and the command's own terminal, or, where it has a
// pseudo-terminal instance of its own (privatePTYs), every terminal in it.
func landlockRules(cfg landlock.Config, h helperArgs, privatePTYs bool) ([]landlock.Rule, error) {
	handled := cfg.HandledAccessFS
	rules, err := readRules(handled, append([]string{"/dev"}, unreadable(h.denyRead, h.hide, h.roots)...))
	if err != nil {
		return nil, err
	}
	rules = append(rules, allowReadRules(handled, h.allowRead)...)
	for _, root := range h.roots {
		rights, err := rootRights(root, handled)
		if err != nil {
			return nil, err
		}
		rules = append(rules, landlock.PathAccess(rights, root))
	}
	rules = append(rules, proxyRules(h)...)
	return append(rules,
		landlock.PathAccess(handled&deviceRights, terminalDevices...).IgnoreIfMissing(),
		terminalRule(handled, privatePTYs),
		landlock.PathAccess(handled&fileReadRights, readableDevices...).IgnoreIfMissing(),
		landlock.PathAccess(handled&readRights, deviceFolders...).IgnoreIfMissing(),
	), nil
}

// readRules grants listing every folder, and reading and executing every
// file but those under the hidden paths. Landlock only grants, and a grant
// on a folder reaches everything beneath it, so each folder on the way to
// a hidden path is granted entry by entry: its other entries whole, the
// hidden one not at all. A link is never granted: the kernel checks what
// it leads to, by that path's own rules.
func readRules(handled landlock.AccessFSSet, hidden []string) ([]landlock.Rule, error) {
	rules := []landlock.Rule{landlock.PathAccess(handled&ll.AccessFSReadDir, "/")}
	ways := waysTo(hidden)
	var grant func(dir string) error
	grant = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("list %s to grant reading around what is hidden: %w", dir, err)
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case ways.hidden[p], e.Type()&fs.ModeSymlink != 0:
			case e.IsDir() && ways.on[p]:
				if err := grant(p); err != nil {
					return err
				}
			case e.IsDir():
				rules = append(rules, landlock.PathAccess(handled&readRights, p).IgnoreIfMissing())
			default:
				rules = append(rules, landlock.PathAccess(handled&fileReadRights, p).IgnoreIfMissing())
			}
		}
		return nil
	}
	return rules, grant("/")
}

// unreadable are the paths Landlock grants nothing in: the secrets, and
// the hidden paths (wisp's home) that lie outside every root. Inside one,
// the root's grant reaches them, and only the mount namespace's cover
// hides them (cover_linux.go).
func unreadable(denyRead, hide, roots []string) []string {
	out := slices.Clone(denyRead)
	for _, p := range hide {
		if paths.OutermostRoot(p, roots) == "" {
			out = paths.AppendNew(out, p)
		}
	}
	return out
}

// allowReadRules give back the allowRead entries inside the secrets:
// Landlock's rules are a union, so a grant on ~/.ssh/known_hosts makes
// that one file readable while the rest of ~/.ssh stays hidden. A folder
// takes the folder's rights, a file the file's, as the kernel requires.
func allowReadRules(handled landlock.AccessFSSet, paths []string) []landlock.Rule {
	var rules []landlock.Rule
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil: // missing: nothing to give back
		case info.IsDir():
			rules = append(rules, landlock.PathAccess(handled&readRights, p).IgnoreIfMissing())
		default:
			rules = append(rules, landlock.PathAccess(handled&fileReadRights, p).IgnoreIfMissing())
		}
	}
	return rules
}

// hiddenWays are the hidden paths and the folders on the way to them, as
// sets: readRules and readView ask of every entry of each such folder
// whether it is one or the other (wisp's side asks before every command,
// the served helper's too), which a walk over the list per entry made cost
// a string built for each pair.
type hiddenWays struct {
	hidden map[string]bool // the hidden paths themselves
	on     map[string]bool // every folder that holds one below it
}

func waysTo(hidden []string) hiddenWays {
	w := hiddenWays{hidden: map[string]bool{}, on: map[string]bool{}}
	for _, h := range hidden {
		w.hidden[h] = true
		for d := filepath.Dir(h); !w.on[d]; d = filepath.Dir(d) {
			w.on[d] = true
			if d == "/" || d == "." {
				break
			}
		}
	}
	return w
}

func terminalRule(handled landlock.AccessFSSet, privatePTYs bool) landlock.Rule {
	if privatePTYs {
		return landlock.PathAccess(handled&(deviceRights|ll.AccessFSReadDir), "/dev/pts")
	}
	return landlock.PathAccess(handled&deviceRights, ownTerminals()...).IgnoreIfMissing()
}

// ownTerminals are the terminals on the helper's standard streams, as
// /dev paths: the one terminal a command may open by name.
func ownTerminals() []string {
	var out []string
	for fd := 0; fd <= 2; fd++ {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
			continue
		}
		p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		if err == nil && strings.HasPrefix(p, "/dev/") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// rootRights is every handled right for a folder but device ioctls,
// making device nodes (a node of a disk, written raw, would reach every
// file) and connecting to sockets by path (a socket of the person's in a
// root, such as ssh-agent's in /tmp, stays refused; a command's own are
// reachable without it, made in its own Landlock domain); a root that is a
// file takes the rights that apply to files, as the kernel requires.
func rootRights(root string, handled landlock.AccessFSSet) (landlock.AccessFSSet, error) {
	info, err := os.Stat(root)
	if err != nil {
		return 0, fmt.Errorf("writable root: %w", err)
	}
	rights := handled &^ (ll.AccessFSIoctlDev | ll.AccessFSMakeChar | ll.AccessFSMakeBlock | ll.AccessFSResolveUnix)
	if !info.IsDir() {
		rights &= fileRights
	}
	return rights, nil
}

var errNothingEnforced = errors.New("the kernel would enforce no Landlock rule here")

// restrict applies Landlock and no_new_privs to the calling thread, which
// must be locked to its goroutine: enough for a helper that execs next,
// since the exec leaves only this thread, and it spares the all-threads
// dance before every command. allThreads applies them to every thread of
// the process, as a served helper needs.
func restrict(cfg landlock.Config, rules []landlock.Rule, allThreads bool) error {
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("build the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return errNothingEnforced
	}
	defer unix.Close(fd)
	prctl, restrictSelf := unix.Prctl, ll.LandlockRestrictSelf
	if allThreads {
		prctl, restrictSelf = ll.AllThreadsPrctl, ll.AllThreadsLandlockRestrictSelf
	}
	if err := prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := restrictSelf(fd, flags); err != nil {
		return fmt.Errorf("apply Landlock: %w", err)
	}
	return nil
}

// readView digests the names in each folder on the way to a secret or a
// hidden path (unreadable: those readRules grants entry by entry), and
// whether each is a folder or a link:
// it changes when an entry appears or goes there, which a served helper's
// rules, made at its start, would not see. Folders that cannot be listed
// count as such. wisp asks before every command; the last answer is kept
// while none of the folders has changed since (lastView).
func readView(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	hidden := append([]string{"/dev"}, paths...)
	key := strings.Join(hidden, "\x00")
	lastView.Lock()
	defer lastView.Unlock()
	if lastView.key == key && lastView.unchanged() {
		return lastView.digest
	}
	listed := time.Now()
	digest, stamps := walkView(hidden)
	lastView.key, lastView.digest, lastView.stamps = key, digest, nil
	if settledBefore(stamps, listed) {
		lastView.stamps = stamps
	}
	return digest
}

// walkView lists the folders on the way to the hidden paths, each stamped
// before it is listed (so that a change while listing shows as a change).
func walkView(hidden []string) (string, []dirStamp) {
	ways := waysTo(hidden)
	h := sha256.New()
	var stamps []dirStamp
	var walk func(dir string)
	walk = func(dir string) {
		stamps = append(stamps, stampOf(dir))
		entries, err := os.ReadDir(dir)
		fmt.Fprintf(h, "%s\x00%v\x00", dir, err != nil)
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			fmt.Fprintf(h, "%s\x00%d\x00", e.Name(), e.Type())
			if e.IsDir() && !ways.hidden[p] && ways.on[p] {
				walk(p)
			}
		}
	}
	walk("/")
	return hex.EncodeToString(h.Sum(nil)[:12]), stamps
}

// lastView is this process's last readView: its digest, for the hidden
// paths key, and the folders it listed as they were (nil when it may not
// be kept).
var lastView viewCache

type viewCache struct {
	sync.Mutex
	key, digest string
	stamps      []dirStamp
}

// dirStamp is what changes with a folder's entries: its modification and
// change times (an entry made, removed or renamed in it sets both), and
// the inode (a folder replaced by another).
type dirStamp struct {
	path         string
	ino          uint64
	mtime, ctime int64
	ok           bool
}

func stampOf(dir string) dirStamp {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return dirStamp{path: dir}
	}
	return dirStamp{path: dir, ino: st.Ino, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ok: true}
}

// unchanged reports whether every folder the last digest listed is as it
// was then.
func (v *viewCache) unchanged() bool {
	if v.stamps == nil {
		return false
	}
	for _, s := range v.stamps {
		if stampOf(s.path) != s {
			return false
		}
	}
	return true
}

// viewSettle is how long before a listing a folder must have last changed
// for its times to tell every later change: a file system stamps times
// from a clock that may lag by a tick, so a folder changed just before the
// listing could change again within the same tick and keep its times.
const viewSettle = 100 * time.Millisecond

// settledBefore reports whether every folder was stamped and had last
// changed well before listed.
func settledBefore(stamps []dirStamp, listed time.Time) bool {
	limit := listed.Add(-viewSettle).UnixNano()
	for _, s := range stamps {
		if !s.ok || s.mtime >= limit || s.ctime >= limit {
			return false
		}
	}
	return true
}
