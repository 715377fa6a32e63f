package sandbox

import (
	"errors"
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
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
func kernelFeatures() (LandlockFeatures, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return LandlockFeatures{}, err
	}
	errata, err := ll.LandlockGetErrata()
	f := landlockFeatures(abi, err == nil && errata&erratumScopingFixed != 0)
	f.SocketFilter = socketFilter
	return f, nil
}

// landlockConfig is what the helper restricts: every filesystem right of
// the ABI (but connecting to Unix sockets by path, left open as below ABI
// 9), the network rights when the network is off, and scoping. Denials
// after the exec go to the kernel's audit log where audit is on.
func landlockConfig(f LandlockFeatures, network bool) landlock.Config {
	cfg := landlockConfigs[min(f.ABI, len(landlockConfigs)-1)]
	cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	if network {
		cfg.HandledAccessNet = 0
	}
	if !f.Scoping {
		cfg.Scoped = 0
	}
	return cfg.EnableLoggingForSubprocesses().BestEffort()
}

const (
	readRights   = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	fileRights   = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
	deviceRights = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// terminalDevices may be written and take ioctls, so that programs can
// write to /dev/null and talk to the terminal (stty, less, ssh's prompts).
var terminalDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// landlockRules grants reading and executing everywhere, everything but
// device ioctls under the roots, and the terminal devices.
func landlockRules(cfg landlock.Config, roots []string) ([]landlock.Rule, error) {
	handled := cfg.HandledAccessFS
	rules := []landlock.Rule{landlock.PathAccess(handled&readRights, "/")}
	for _, root := range roots {
		rights, err := rootRights(root, handled)
		if err != nil {
			return nil, err
		}
		rules = append(rules, landlock.PathAccess(rights, root))
	}
	return append(rules, landlock.PathAccess(handled&deviceRights, terminalDevices...).IgnoreIfMissing()), nil
}

// rootRights is every handled right for a folder but device ioctls and
// making device nodes (a node of a disk, written raw, would reach every
// file); a root that is a file takes the rights that apply to files, as
// the kernel requires.
func rootRights(root string, handled landlock.AccessFSSet) (landlock.AccessFSSet, error) {
	info, err := os.Stat(root)
	if err != nil {
		return 0, fmt.Errorf("writable root: %w", err)
	}
	rights := handled &^ (ll.AccessFSIoctlDev | ll.AccessFSMakeChar | ll.AccessFSMakeBlock)
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
