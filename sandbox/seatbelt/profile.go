package seatbelt

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// Backend confines commands on macOS with sandbox-exec. Its argv is plain
// Go, built and tested on every system; only its detection (Detect, which
// registers with package sandbox) and the descriptors' closing are macOS's.
type Backend struct{}

// Name is "seatbelt".
func (Backend) Name() string { return "seatbelt" }

// Check covers every protected path: a Seatbelt rule matches a path whether
// it exists or not, and denies it after the roots' allows.
func (Backend) Check(spec sandbox.Spec) (sandbox.Spec, error) {
	spec.Unprotected = nil
	return spec, nil
}

// Command is Args. On macOS it first marks every descriptor wisp
// inherited close-on-exec (closeInheritedOnExec), as Linux's helper does:
// Seatbelt checks a path when it is opened, so a descriptor opened before
// on a file outside the roots would write there unchecked.
func (Backend) Command(spec sandbox.Spec, line string) ([]string, error) {
	if err := closeInheritedOnExec(); err != nil {
		return nil, fmt.Errorf("sandbox: keep wisp's descriptors from the command: %w", err)
	}
	return Args(spec, line), nil
}

// Param is one -D NAME=VALUE of sandbox-exec: a path the profile
// names by its parameter, never by its text.
type Param struct {
	Name  string
	Value string
}

// Params lists the parameters for spec: ROOT_i for each root,
// PROTECT_i for each protected path, PIN_i for each folder between a root
// and a protected path inside it, DENYREAD_i for each secret,
// ALLOWREAD_i for each allowRead entry inside one, and HIDE_i for each
// form of wisp's home.
func Params(spec sandbox.Spec) []Param {
	var params []Param
	for _, list := range seatbeltLists(spec) {
		for i, p := range list.paths {
			params = append(params, Param{fmt.Sprintf("%s_%d", list.prefix, i), p})
		}
	}
	return params
}

type seatbeltList struct {
	prefix string
	paths  []string
}

func seatbeltLists(spec sandbox.Spec) []seatbeltList {
	return []seatbeltList{{"ROOT", spec.Roots}, {"PROTECT", spec.Protected}, {"PIN", seatbeltPins(spec)},
		{"DENYREAD", spec.DenyRead}, {"ALLOWREAD", spec.AllowRead}, {"HIDE", spec.Hidden}}
}

// seatbeltPins are the folders between a root and a protected path inside
// it, outermost first: the folders Linux binds onto themselves
// (planMounts), so that no command moves .git aside, writes its hooks
// under the new name and moves it back. Seatbelt matches paths, not
// folders, so a denial of .git/hooks does not follow .git when it is
// renamed; refusing to unlink (rename or remove) each folder on the way
// does.
func seatbeltPins(spec sandbox.Spec) []string {
	var pins []string
	for _, op := range paths.PlanMounts(spec.Roots, spec.Protected) {
		if !op.ReadOnly {
			pins = append(pins, op.Path)
		}
	}
	return pins
}

// Args returns the argv that runs `/bin/sh -c line` under the
// profile for spec. It is plain Go so that every system can show and test it.
func Args(spec sandbox.Spec, line string) []string {
	args := []string{sandbox.SeatbeltExec}
	for _, p := range Params(spec) {
		args = append(args, "-D", p.Name+"="+p.Value)
	}
	args = append(args, "-p", Profile(spec))
	return append(args, sandbox.Plain(line)...)
}

// Profile is the profile text for spec. It depends only on how many
// paths each list holds and on the network and Unix socket switches: the
// paths reach sandbox-exec as parameters, so no path can change the text.
//
// Everything is allowed (docs/decisions.md, D1) but what Linux refuses too, each section
// below taking away one thing and saying why: writes outside the roots,
// devices, the protected paths and the folders above them, setuid and
// setgid modes, the secrets, other processes, and the local services and
// network, and wisp's home, which is not even readable. Seatbelt applies the last rule that matches, so each denial
// comes after the allow it narrows.
func Profile(spec sandbox.Spec) string {
	var b strings.Builder
	b.WriteString("(version 1)\n")
	for _, section := range []func(*strings.Builder, sandbox.Spec){
		writeBase, writeWrites, writeDevices, writeProtected, writeSetugid,
		writeReads, writeHidden, writeProcesses, writeLocalServices, writeNetwork, writeProxy,
	} {
		section(&b, spec)
	}
	return b.String()
}

// writeNetwork closes the network when it is off, and Unix sockets unless
// commandPolicy.sandbox.allowUnixSockets: a socket by path reaches docker,
// tmux, ssh-agent and gpg-agent, and through some of them a command runs
// outside the sandbox (Linux refuses socket(AF_UNIX) for the same reason).
// Two sockets stay open because the system needs them: syslog(3)'s, which
// runs nothing, and, with the network on, mDNSResponder's, through which
// every name lookup goes. With the network off no lookup is made, so names
// cannot carry data out either.
func writeNetwork(b *strings.Builder, spec sandbox.Spec) {
	switch {
	case !spec.Network && spec.UnixSockets:
		b.WriteString("\n; Network off: no connections, except over local Unix sockets (allowUnixSockets).\n")
		b.WriteString("(deny network*)\n")
		b.WriteString("(allow network-outbound (remote unix-socket))\n")
		b.WriteString("(allow network-inbound (local unix-socket))\n")
		b.WriteString("(allow network-bind (local unix-socket))\n")
	case !spec.Network:
		b.WriteString("\n; Network off: no connections, no Unix sockets (docker, tmux, agents), no name lookups.\n")
		b.WriteString("(deny network*)\n")
		b.WriteString(seatbeltSyslog)
	case !spec.UnixSockets:
		b.WriteString("\n; No Unix sockets (commandPolicy.sandbox.allowUnixSockets): docker, tmux and\n")
		b.WriteString("; the agents behind them run what they are sent outside the sandbox.\n")
		b.WriteString("(deny network-outbound (remote unix-socket))\n")
		b.WriteString("(deny network-bind (local unix-socket))\n")
		b.WriteString(seatbeltSyslog)
		b.WriteString("; Name lookups go through mDNSResponder's socket.\n")
		b.WriteString("(allow network-outbound (remote unix-socket (path-literal \"/private/var/run/mDNSResponder\")))\n")
	}
}

const seatbeltSyslog = "; syslog(3) writes to this socket; nothing runs through it.\n" +
	"(allow network-outbound (remote unix-socket (path-literal \"/private/var/run/syslog\")))\n"

// Gaps is Gaps(spec), for the report.
func (Backend) Gaps(spec sandbox.Spec) []string { return Gaps(spec) }
