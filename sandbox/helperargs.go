package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// HelperCommand is the hidden subcommand wisp re-executes itself as to
// confine one command on Linux: `wisp __sandbox-exec [flags] -- ARGV`.
const HelperCommand = "__sandbox-exec"

// HelperExecutable is the sandbox helper's own executable, installed beside
// wisp (cmd/wisp-sandbox). It is wisp's helper and nothing else: it links
// the standard library, go-landlock and x/sys only, so it starts in about
// the time of a Go program that does nothing, where wisp itself, run again
// as the helper, first runs the initialisers of everything it links (the
// model client, the MCP SDK). Where it is absent, wisp runs itself as the
// helper, as before: the same flags, the same confinement.
const HelperExecutable = "wisp-sandbox"

// BesideExecutables are wisp's executables as make install puts them, in
// one folder: each is kept unwritable inside a root like wisp's own.
var BesideExecutables = []string{"wisp", "wisp-agent", HelperExecutable, "wisp-bar"}

// BuildVersion is the version wisp and wisp-sandbox are stamped with (the
// Makefile sets it with -X, as it sets wisp's own). wisp tells a helper of
// its own executable (--version) which version it expects, and the helper
// confines nothing for another: the two speak one set of flags.
var BuildVersion = "0.1.0-dev"

// HelperFailedStatus is the helper's exit status when it cannot confine the
// command (as env and timeout use 125 for their own failures).
const HelperFailedStatus = 125

// reportFD is where a helper run with --report tells wisp how many
// processes the command left running (ReadReport reads it).
const reportFD = 3

// ReportFlag asks the helper to report on descriptor 3, which the caller
// passes (ExtraFiles[0]); WithReport adds it to a helper's argv.
const ReportFlag = "--report"

// WithReport returns argv, a helper's (from Command or CommandAttr), with
// ReportFlag added, or argv itself when it is not the helper's.
func WithReport(argv []string) []string {
	if len(argv) < 2 || argv[1] != HelperCommand {
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
	return append([]string{argv[0], HelperCommand, ReportFlag}, argv[2:]...)
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

// helperFailed says why the helper did not run the command.
func helperFailed(err error) int {
	fmt.Fprintf(os.Stderr, "wisp: error: sandbox: %v\n", err)
	return HelperFailedStatus
}

// Namespace says how the helper gets a private mount namespace, in which it
// binds the protected paths that lie inside a root read-only.
type Namespace string

const (
	// NamespaceAuto finds out once, by a probe, which of the others works.
	NamespaceAuto Namespace = ""
	// NamespaceMount unshares a mount namespace in the helper itself; it
	// needs CAP_SYS_ADMIN (root).
	NamespaceMount Namespace = "mount"
	// NamespaceUser runs the command in a new user and mount namespace, as
	// an unprivileged user can where the system allows it.
	NamespaceUser Namespace = "user"
	// NamespaceNone uses no namespace: a protected path inside a root stays
	// writable, and the helper refuses to run if asked to protect one.
	NamespaceNone Namespace = "none"
	// namespaceEntered is the user-namespace helper's second stage, already
	// inside the namespace its first stage made.
	namespaceEntered Namespace = "entered"
	// namespaceUnshared is a served helper that wisp started in a mount
	// namespace of its own (CLONE_NEWNS at its clone), so that every thread
	// of it, not only the one that would unshare, sees the mounts.
	namespaceUnshared Namespace = "unshared"
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
	ns          Namespace
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
	// env is the environment a served helper starts with, the commands'
	// filtered one: a command may read its helper's /proc/PID/environ.
	// Not a flag.
	env []string
}

func (h helperArgs) encode() []string {
	args := []string{HelperCommand}
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
	if h.ns != NamespaceAuto {
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

var errHelperUsage = errors.New("usage: wisp " + HelperCommand +
	" [--version V] [--root DIR]... [--protect PATH]... [--deny-read PATH]... [--allow-read PATH]... [--hide PATH]... [--read-view DIGEST] [--no-network] [--proxy-port PORT] [--unix-sockets] [--ns mount|user|none] [--serve] [--background] [--report] -- /ABSOLUTE/PROGRAM [ARGS]")

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
		case "--root", "--protect", "--ns", "--deny-read", "--allow-read", "--hide", "--read-view", "--proxy-port", "--version":
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
		h.ns = Namespace(value)
	case "--deny-read":
		h.denyRead = append(h.denyRead, value)
	case "--allow-read":
		h.allowRead = append(h.allowRead, value)
	case "--hide":
		h.hide = append(h.hide, value)
	case "--read-view":
		h.readView = value
	case "--version":
		h.version = value
	case "--proxy-port":
		h.proxyPort = parseProxyPort(value)
	}
}

func (h helperArgs) validate() error {
	if h.version != "" && h.version != BuildVersion {
		return fmt.Errorf("this sandbox helper is version %s and wisp is %s: install both from one build (make install)", BuildVersion, h.version)
	}
	switch h.ns {
	case NamespaceAuto, NamespaceMount, NamespaceUser, NamespaceNone, namespaceEntered, namespaceUnshared:
	default:
		return fmt.Errorf("--ns %q is not mount, user or none; %w", h.ns, errHelperUsage)
	}
	for _, p := range slices.Concat(h.roots, h.protect, h.denyRead, h.allowRead, h.hide) {
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

// readFlags are h's --deny-read, --allow-read and --hide flags.
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
	if h.readView != "" {
		args = append(args, "--read-view", h.readView)
	}
	return args
}
