package sandbox

import (
	"fmt"
	"strings"
)

// SeatbeltExec is macOS's sandbox-exec, which applies a Seatbelt profile.
const SeatbeltExec = "/usr/bin/sandbox-exec"

// Seatbelt confines commands on macOS with sandbox-exec. Its argv is plain
// Go, built and tested on every system; only Detect and Nested are macOS's.
type Seatbelt struct{}

// Name is "seatbelt".
func (Seatbelt) Name() string { return "seatbelt" }

// Check covers every protected path: a Seatbelt rule matches a path whether
// it exists or not, and denies it after the roots' allows.
func (Seatbelt) Check(spec Spec) (Spec, error) {
	spec.Unprotected = nil
	return spec, nil
}

// Command is SeatbeltArgs.
func (Seatbelt) Command(spec Spec, line string) ([]string, error) {
	return SeatbeltArgs(spec, line), nil
}

// SeatbeltParam is one -D NAME=VALUE of sandbox-exec: a path the profile
// names by its parameter, never by its text.
type SeatbeltParam struct {
	Name  string
	Value string
}

// SeatbeltParams lists the parameters for spec: ROOT_i for each root,
// PROTECT_i for each protected path, DENYREAD_i for each secret and
// ALLOWREAD_i for each allowRead entry inside one.
func SeatbeltParams(spec Spec) []SeatbeltParam {
	var params []SeatbeltParam
	for _, list := range []struct {
		prefix string
		paths  []string
	}{{"ROOT", spec.Roots}, {"PROTECT", spec.Protected}, {"DENYREAD", spec.DenyRead}, {"ALLOWREAD", spec.AllowRead}} {
		for i, p := range list.paths {
			params = append(params, SeatbeltParam{fmt.Sprintf("%s_%d", list.prefix, i), p})
		}
	}
	return params
}

// SeatbeltArgs returns the argv that runs `/bin/sh -c line` under the
// profile for spec. It is plain Go so that every system can show and test it.
func SeatbeltArgs(spec Spec, line string) []string {
	args := []string{SeatbeltExec}
	for _, p := range SeatbeltParams(spec) {
		args = append(args, "-D", p.Name+"="+p.Value)
	}
	args = append(args, "-p", SeatbeltProfile(spec))
	return append(args, Plain(line)...)
}

// SeatbeltProfile is the profile text for spec. It depends only on how many
// roots, protected paths, secrets and allowRead entries there are and on
// the network switch: the paths
// reach sandbox-exec as parameters, so no path can change the text.
//
// Everything is allowed except writing outside the roots and reading the
// secrets; the protected paths are denied after the roots are allowed (the
// last matching rule wins), the allowRead entries allowed after the
// secrets are denied, signals reach only processes in the same sandbox, and with the
// network off every network operation is denied except Unix sockets.
func SeatbeltProfile(spec Spec) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	b.WriteString("\n; Writes only under the roots, and to the terminal and the null devices.\n")
	b.WriteString("(deny file-write*)\n")
	b.WriteString("(allow file-write*\n")
	writeFilters(&b, "ROOT", len(spec.Roots))
	for _, dev := range seatbeltDevices {
		fmt.Fprintf(&b, "  %s\n", dev)
	}
	b.WriteString(")\n")
	if len(spec.Protected) > 0 {
		b.WriteString("\n; Never writable, even inside a root: wisp's home, a repository's hooks and config.\n")
		b.WriteString("(deny file-write*\n")
		writeFilters(&b, "PROTECT", len(spec.Protected))
		b.WriteString(")\n")
	}
	writeReads(&b, spec)
	b.WriteString("\n; Signals reach only processes inside this sandbox, never wisp.\n")
	b.WriteString("(deny signal)\n(allow signal (target same-sandbox))\n")
	if !spec.Network {
		b.WriteString("\n; Network off: no connections, except over local Unix sockets.\n")
		b.WriteString(seatbeltNetworkOff)
	}
	return b.String()
}

// writeReads denies reading the secrets, after the allow default, and
// gives back the allowRead entries inside them after that: the last
// matching rule wins.
func writeReads(b *strings.Builder, spec Spec) {
	if len(spec.DenyRead) == 0 {
		return
	}
	b.WriteString("\n; Secrets are not readable (commandPolicy.sandbox.denyRead).\n")
	b.WriteString("(deny file-read*\n")
	writeFilters(b, "DENYREAD", len(spec.DenyRead))
	b.WriteString(")\n")
	if len(spec.AllowRead) > 0 {
		b.WriteString("\n; Given back by commandPolicy.sandbox.allowRead.\n")
		b.WriteString("(allow file-read*\n")
		writeFilters(b, "ALLOWREAD", len(spec.AllowRead))
		b.WriteString(")\n")
	}
}

func writeFilters(b *strings.Builder, prefix string, n int) {
	for i := 0; i < n; i++ {
		fmt.Fprintf(b, "  (subpath (param \"%s_%d\"))\n", prefix, i)
	}
}

// seatbeltDevices are the device files any command may write, fixed text
// that no input reaches.
var seatbeltDevices = []string{
	`(literal "/dev/null")`,
	`(literal "/dev/zero")`,
	`(literal "/dev/tty")`,
	`(literal "/dev/stdout")`,
	`(literal "/dev/stderr")`,
	`(literal "/dev/dtracehelper")`,
	`(subpath "/dev/fd")`,
	`(regex #"^/dev/ttys[0-9]+$")`,
}

const seatbeltNetworkOff = `(deny network*)
(allow network-outbound (remote unix-socket))
(allow network-inbound (local unix-socket))
(allow network-bind (local unix-socket))
`
