package landlock

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/sandbox"
)

// reportFD is where a helper run with --report tells wisp how many
// processes the command left running (ReadReport reads it).
const reportFD = 3

// ReportFlag asks the helper to report on descriptor 3, which the caller
// passes (ExtraFiles[0]); WithReport adds it to a helper's argv.
const ReportFlag = "--report"

// WithReport returns argv, a helper's (from Command or CommandAttr), with
// ReportFlag added, or argv itself when it is not the helper's.
func WithReport(argv []string) []string {
	if len(argv) < 2 || argv[1] != sandbox.HelperCommand {
		return argv
	}
	for _, a := range argv[2:] {
		if a == "--" {
			break
		}
		if a == "--background" || a == ReportFlag { // the helper does not stay, or already reports
			return argv
		}
	}
	return append([]string{argv[0], sandbox.HelperCommand, ReportFlag}, argv[2:]...)
}

// ReadReport reads what the helper wrote on its report descriptor: how
// many processes the command left running and the helper stopped. ok is
// false when the helper said nothing (it did not supervise the command).
func ReadReport(data []byte) (stopped int, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(string(data)), "stopped ")
	if !found {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

const (
	// namespaceEntered is the user-namespace helper's second stage, already
	// inside the namespace its first stage made.
	namespaceEntered sandbox.Namespace = "entered"
	// namespaceUnshared is a served helper that wisp started in a mount
	// namespace of its own (CLONE_NEWNS at its clone), so that every thread
	// of it, not only the one that would unshare, sees the mounts.
	namespaceUnshared sandbox.Namespace = "unshared"
)

// helperArgs are the helper's flags, explicit so that nothing travels in
// the environment, which passes to the command untouched.
type helperArgs struct {
	// version (--version) is the BuildVersion wisp expects of a helper
	// that is not wisp itself; "" for wisp run as its own helper.
	version   string
	roots     []string
	protect   []string
	noNetwork bool
	// proxyPort (--proxy-port), with --no-network, is the one TCP port a
	// command may connect to: wisp's proxy (network.go).
	proxyPort int
	// unixSockets lets the command open Unix sockets; without the flag
	// they are refused (fail closed: a helper run without it refuses).
	unixSockets bool
	ns          sandbox.Namespace
	probe       bool // --probe-ns: try the namespace, print its kind, exit
	serve       bool // --serve: once confined, start the commands asked for on fd 3
	// background (--background) lets the command's processes outlive it
	// (commandPolicy.sandbox.allowBackground): the helper execs the shell
	// instead of staying as its parent to end them.
	background bool
	report     bool     // --report: say on fd 3 how many processes were stopped
	argv       []string // after --: the program and its arguments
	// denyRead (--deny-read) are the secrets the command may not read;
	// allowRead (--allow-read) the entries inside them it may.
	denyRead, allowRead []string
	// hide (--hide) are the paths no command may read, list or watch:
	// wisp's home. Where the helper has a mount namespace it puts an empty
	// tmpfs over each; outside the roots Landlock grants nothing in them.
	hide []string
	// readView (--read-view), a served helper's alone, is a digest of the
	// folders on the way to the secrets, as wisp listed them: the helper
	// grants their entries one by one, so a served helper started before
	// an entry appeared does not serve once it has (Server.Serves lists
	// them again). A command's own helper makes its rules afresh.
	readView string
	// socketHomes (--socket-home) are the folders that hold the person's
	// Unix sockets, which the helper covers where it hides them
	// (sockets_linux.go).
	socketHomes []string
	// hideSockets says the helper hides the person's sockets in its
	// namespace (sandbox.UnixHidden). Not a flag: the helper decides.
	hideSockets bool
	// env is the environment a served helper starts with, the commands'
	// filtered one: a command may read its helper's /proc/PID/environ.
	// Not a flag.
	env []string
}

func (h helperArgs) encode() []string {
	args := []string{sandbox.HelperCommand}
	if h.version != "" {
		args = append(args, "--version", h.version)
	}
	for _, r := range h.roots {
		args = append(args, "--root", r)
	}
	for _, p := range h.protect {
		args = append(args, "--protect", p)
	}
	args = append(args, readFlags(h)...)
	if h.noNetwork {
		args = append(args, "--no-network")
	}
	args = append(args, proxyFlags(h)...)
	if h.unixSockets {
		args = append(args, "--unix-sockets")
	}
	if h.ns != sandbox.NamespaceAuto {
		args = append(args, "--ns", string(h.ns))
	}
	if h.probe {
		args = append(args, "--probe-ns")
	}
	if h.serve {
		args = append(args, "--serve")
	}
	if h.background {
		args = append(args, "--background")
	}
	if h.report {
		args = append(args, ReportFlag)
	}
	return append(append(args, "--"), h.argv...)
}

var errHelperUsage = errors.New("usage: wisp " + sandbox.HelperCommand +
	" [--version V] [--root DIR]... [--protect PATH]... [--deny-read PATH]... [--allow-read PATH]... [--hide PATH]... [--socket-home DIR]... [--read-view DIGEST] [--no-network] [--proxy-port PORT] [--unix-sockets] [--ns mount|user|none] [--serve] [--background] [--report] -- /ABSOLUTE/PROGRAM [ARGS]")

// parseHelperArgs reads the helper's flags (the words after HelperCommand).
func parseHelperArgs(args []string) (helperArgs, error) {
	var h helperArgs
	for i := 0; i < len(args); i++ {
		switch flag := args[i]; flag {
		case "--":
			h.argv = args[i+1:]
			return h, h.validate()
		case "--no-network":
			h.noNetwork = true
		case "--unix-sockets":
			h.unixSockets = true
		case "--probe-ns":
			h.probe = true
		case "--serve":
			h.serve = true
		case "--background":
			h.background = true
		case ReportFlag:
			h.report = true
		case "--root", "--protect", "--ns", "--deny-read", "--allow-read", "--hide", "--socket-home", "--read-view", "--proxy-port", "--version":
			if i+1 >= len(args) {
				return h, fmt.Errorf("%s needs a value; %w", flag, errHelperUsage)
			}
			i++
			h.set(flag, args[i])
		default:
			return h, fmt.Errorf("unknown flag %q; %w", flag, errHelperUsage)
		}
	}
	return h, h.validate()
}

func (h *helperArgs) set(flag, value string) {
	switch flag {
	case "--root":
		h.roots = append(h.roots, value)
	case "--protect":
		h.protect = append(h.protect, value)
	case "--ns":
		h.ns = sandbox.Namespace(value)
	case "--deny-read":
		h.denyRead = append(h.denyRead, value)
	case "--allow-read":
		h.allowRead = append(h.allowRead, value)
	case "--hide":
		h.hide = append(h.hide, value)
	case "--socket-home":
		h.socketHomes = append(h.socketHomes, value)
	case "--read-view":
		h.readView = value
	case "--version":
		h.version = value
	case "--proxy-port":
		h.proxyPort = parseProxyPort(value)
	}
}

func (h helperArgs) validate() error {
	if h.version != "" && h.version != sandbox.BuildVersion {
		return fmt.Errorf("this sandbox helper is version %s and wisp is %s: install both from one build (make install)", sandbox.BuildVersion, h.version)
	}
	switch h.ns {
	case sandbox.NamespaceAuto, sandbox.NamespaceMount, sandbox.NamespaceUser, sandbox.NamespaceNone, namespaceEntered, namespaceUnshared:
	default:
		return fmt.Errorf("--ns %q is not mount, user or none; %w", h.ns, errHelperUsage)
	}
	for _, p := range slices.Concat(h.roots, h.protect, h.denyRead, h.allowRead, h.hide, h.socketHomes) {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return fmt.Errorf("%q is not a clean absolute path; %w", p, errHelperUsage)
		}
	}
	if err := h.validateProxy(); err != nil {
		return err
	}
	if h.probe {
		return nil
	}
	if h.report && (h.serve || h.background) {
		return fmt.Errorf("--report is for a helper that stays as the command's parent, not with --serve or --background; %w", errHelperUsage)
	}
	if len(h.argv) == 0 || !filepath.IsAbs(h.argv[0]) {
		return fmt.Errorf("no program to run, or not by absolute path; %w", errHelperUsage)
	}
	return nil
}

// confinesAllThreads says whether the helper lives on beside the command
// (a served helper, or one that stays as the command's parent) and so
// must confine every one of its threads, not only the one that execs.
func (h helperArgs) confinesAllThreads() bool { return h.serve || !h.background }

// readFlags are h's --deny-read, --allow-read, --hide and --socket-home
// flags.
func readFlags(h helperArgs) []string {
	var args []string
	for _, p := range h.denyRead {
		args = append(args, "--deny-read", p)
	}
	for _, p := range h.allowRead {
		args = append(args, "--allow-read", p)
	}
	for _, p := range h.hide {
		args = append(args, "--hide", p)
	}
	for _, p := range h.socketHomes {
		args = append(args, "--socket-home", p)
	}
	if h.readView != "" {
		args = append(args, "--read-view", h.readView)
	}
	return args
}

// proxyFlags are h's --proxy-port flag.
func proxyFlags(h helperArgs) []string {
	if h.proxyPort == 0 {
		return nil
	}
	return []string{"--proxy-port", fmt.Sprint(h.proxyPort)}
}

// parseProxyPort reads --proxy-port's value; -1 for what is not a port,
// which validateProxy refuses.
func parseProxyPort(s string) int {
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s || n < 1 || n > 65535 {
		return -1
	}
	return n
}

// validateProxy refuses a proxy port that is not one, or one without
// --no-network, where it would mean nothing and read as a restriction.
func (h helperArgs) validateProxy() error {
	switch {
	case h.proxyPort < 0:
		return fmt.Errorf("--proxy-port takes a port from 1 to 65535; %w", errHelperUsage)
	case h.proxyPort > 0 && !h.noNetwork:
		return fmt.Errorf("--proxy-port is for --no-network; %w", errHelperUsage)
	}
	return nil
}
