package seatbelt_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func exampleSpec(network bool) sandbox.Spec {
	return sandbox.Spec{
		Roots:     []string{"/Users/ana/src/app", "/private/tmp", "/private/var/folders/x1/abc/T", "/Users/ana/Library/Caches"},
		Protected: []string{"/Users/ana/.wisp", "/Users/ana/src/app/.git/hooks", "/Users/ana/src/app/.git/config"},
		Home:      "/Users/ana/.wisp",
		Hidden:    []string{"/Users/ana/.wisp"},
		Network:   network,
	}
}

// TestSeatbeltProfileGolden pins the profile text; -update rewrites it.
func TestSeatbeltProfileGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec sandbox.Spec
	}{
		{"network-on", exampleSpec(true)},
		{"network-off", exampleSpec(false)},
		{"no-protected", sandbox.Spec{Roots: []string{"/p"}, Network: true}},
		{"unix-sockets", decisionSpec(true, true)},
		{"network-off-unix-sockets", decisionSpec(false, true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", "seatbelt-"+tc.name+".sb"), seatbelt.Profile(tc.spec))
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs (run go test -update if the change is meant):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestSeatbeltPathsCannotAlterProfile: paths travel as -D parameters, so a
// root or protected path full of SBPL's own syntax leaves the text as it
// would be for any other paths, and reaches sandbox-exec as one argument.
func TestSeatbeltPathsCannotAlterProfile(t *testing.T) {
	hostile := []string{
		`/p/") (allow file-write* (subpath "/`,
		"/p/a\nb)(allow default",
		`/p/back\slash\"`,
		"/p/(((",
		`/p/;comment`,
		`/p/#"regex"`,
	}
	plain := sandbox.Spec{Roots: []string{"/r0", "/r1", "/r2", "/r3", "/r4", "/r5"}, Protected: []string{"/h0", "/h1", "/h2", "/h3", "/h4", "/h5"},
		Hidden: []string{"/w0", "/w1", "/w2", "/w3", "/w4", "/w5"}}
	evil := sandbox.Spec{Roots: hostile, Protected: hostile, Hidden: hostile}
	if got, want := seatbelt.Profile(evil), seatbelt.Profile(plain); got != want {
		t.Fatalf("hostile paths changed the profile:\n%s", got)
	}
	args := seatbelt.Args(evil, "echo hi")
	for i, p := range hostile {
		if !slices.Contains(args, fmt.Sprintf("ROOT_%d=%s", i, p)) || !slices.Contains(args, fmt.Sprintf("PROTECT_%d=%s", i, p)) ||
			!slices.Contains(args, fmt.Sprintf("HIDE_%d=%s", i, p)) {
			t.Errorf("path %q did not reach sandbox-exec as one -D argument: %q", p, args)
		}
	}
	profile := args[slices.Index(args, "-p")+1]
	for _, p := range hostile {
		if strings.Contains(profile, p) {
			t.Errorf("the profile text contains the path %q", p)
		}
	}
}

// TestSeatbeltPinsAsParameters: the folders above a protected path travel
// as -D parameters too, so a hostile folder name leaves the text as a
// plain one would.
func TestSeatbeltPinsAsParameters(t *testing.T) {
	dir := "/p/x\") (allow default) ; #\"y\n(allow file-write*"
	evil := sandbox.Spec{Roots: []string{"/p"}, Protected: []string{dir + "/.git/hooks"}}
	plain := sandbox.Spec{Roots: []string{"/p"}, Protected: []string{"/p/a/.git/hooks"}}
	if got, want := seatbelt.Profile(evil), seatbelt.Profile(plain); got != want {
		t.Fatalf("a hostile folder changed the profile:\n%s", got)
	}
	if args := seatbelt.Args(evil, "true"); !slices.Contains(args, "PIN_0="+dir) || !slices.Contains(args, "PIN_1="+dir+"/.git") {
		t.Fatalf("the folders above the hooks did not reach sandbox-exec as -D arguments: %q", args)
	}
}

func TestSeatbeltArgs(t *testing.T) {
	spec := sandbox.Spec{Roots: []string{"/proj"}, Protected: []string{"/home/.wisp"}, Network: true}
	args := seatbelt.Args(spec, "make test")
	want := []string{"/usr/bin/sandbox-exec", "-D", "ROOT_0=/proj", "-D", "PROTECT_0=/home/.wisp", "-p", seatbelt.Profile(spec), "/bin/sh", "-c", "make test"}
	if !slices.Equal(args, want) {
		t.Fatalf("args = %q\nwant %q", args, want)
	}
}

// TestSeatbeltProfilesWellFormed parses every profile the generator can
// emit (its text depends only on the counts and the two switches): the
// parentheses balance, strings close, each rule is an allow, deny or
// version form naming operations Seatbelt knows, every parameter it names
// has a -D, and the protected denials come after the roots' allow.
func TestSeatbeltProfilesWellFormed(t *testing.T) {
	for roots := 0; roots <= 4; roots++ {
		for protected := 0; protected <= 4; protected++ {
			for _, network := range []bool{true, false} {
				for _, unix := range []bool{false, true} {
					spec := sandbox.Spec{Roots: numbered("/r", roots), Protected: numbered("/p", protected), Network: network, UnixSockets: unix,
						Hidden: numbered("/w", protected%3)}
					name := fmt.Sprintf("roots=%d/protected=%d/network=%v/unixSockets=%v", roots, protected, network, unix)
					t.Run(name, func(t *testing.T) { checkProfile(t, spec) })
				}
			}
		}
	}
}

func numbered(prefix string, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

func checkProfile(t *testing.T, spec sandbox.Spec) {
	forms, err := parseProfile(seatbelt.Profile(spec))
	if err != nil {
		t.Fatalf("malformed: %v\n%s", err, seatbelt.Profile(spec))
	}
	if len(forms) == 0 || forms[0].String() != "(version 1)" {
		t.Fatalf("the profile does not open with (version 1)")
	}
	params := map[string]bool{}
	for _, p := range seatbelt.Params(spec) {
		params[p.Name] = true
	}
	allowAt, protectAt := -1, -1
	for i, f := range forms[1:] {
		if h := f.head(); h != "allow" && h != "deny" {
			t.Fatalf("rule %d is %s, not allow or deny", i, f)
		}
		checkParams(t, f, params)
		splitRule(t, f) // every operation is one Seatbelt knows
		s := f.String()
		if strings.HasPrefix(s, "(allow file-write*") {
			allowAt = i
		}
		if strings.HasPrefix(s, "(deny file-write* (subpath (param \"PROTECT_") {
			protectAt = i
		}
	}
	if len(spec.Protected) > 0 && protectAt < allowAt {
		t.Fatalf("the protected paths are denied at rule %d, before the roots are allowed at %d", protectAt, allowAt)
	}
	if got := strings.Contains(seatbelt.Profile(spec), "(deny network*)"); got == spec.Network {
		t.Fatalf("(deny network*) present = %v with network %v", got, spec.Network)
	}
}

// checkParams fails for a (param "X") the argv does not define.
func checkParams(t *testing.T, e sexpr, params map[string]bool) {
	t.Helper()
	if e.head() == "param" {
		name := strings.Trim(e.list[1].atom, `"`)
		if !params[name] {
			t.Fatalf("the profile names (param %q), which no -D defines", name)
		}
	}
	for _, x := range e.list {
		checkParams(t, x, params)
	}
}

// TestSeatbeltBackend: Check covers every protected path, and Command is
// the sandbox-exec argv.
func TestSeatbeltBackend(t *testing.T) {
	spec := exampleSpec(false)
	spec.Unprotected = []sandbox.Unprotected{{Path: "/x", Why: "stale"}}
	checked, err := seatbelt.Backend{}.Check(spec)
	if err != nil || len(checked.Unprotected) != 0 {
		t.Fatalf("Check = %v, %v; want every path covered", checked.Unprotected, err)
	}
	argv, err := seatbelt.Backend{}.Command(spec, "true")
	if err != nil || argv[0] != sandbox.SeatbeltExec {
		t.Fatalf("Command = %q, %v", argv, err)
	}
}

// decisionSpec is a person's project with its git files and wisp's home
// protected, a secret with one entry given back, and the network and Unix
// socket switches as given.
func decisionSpec(network, unixSockets bool) sandbox.Spec {
	spec := exampleSpec(network)
	spec.DenyRead = []string{"/Users/ana/.ssh"}
	spec.AllowRead = []string{"/Users/ana/.ssh/known_hosts"}
	spec.UnixSockets = unixSockets
	return spec
}

type decision struct {
	what  string
	q     sbplQuery
	allow bool
}

// alwaysDecided holds whatever the network and Unix socket switches say:
// what Linux enforces in every mode, as the profile must.
var alwaysDecided = []decision{
	{"write in the project", sbplQuery{op: "file-write-data", path: "/Users/ana/src/app/main.go"}, true},
	{"write in the temporary folder", sbplQuery{op: "file-write-create", path: "/private/tmp/x"}, true},
	{"write outside the roots", sbplQuery{op: "file-write-data", path: "/Users/ana/notes.txt"}, false},
	{"chmod outside the roots", sbplQuery{op: "file-write-mode", path: "/Users/ana/notes.txt"}, false},
	{"touch -d outside the roots", sbplQuery{op: "file-write-times", path: "/Users/ana/notes.txt"}, false},
	{"an xattr outside the roots", sbplQuery{op: "file-write-xattr", path: "/Users/ana/notes.txt"}, false},
	{"wisp's home", sbplQuery{op: "file-write-data", path: "/Users/ana/.wisp/config.json"}, false},
	{"a hook", sbplQuery{op: "file-write-create", path: "/Users/ana/src/app/.git/hooks/pre-commit"}, false},
	{"the hooks folder removed", sbplQuery{op: "file-write-unlink", path: "/Users/ana/src/app/.git/hooks"}, false},
	{".git/config", sbplQuery{op: "file-write-data", path: "/Users/ana/src/app/.git/config"}, false},
	{".git moved aside", sbplQuery{op: "file-write-unlink", path: "/Users/ana/src/app/.git"}, false},
	{"an object", sbplQuery{op: "file-write-create", path: "/Users/ana/src/app/.git/objects/ab/cdef"}, true},
	{"the index lock removed", sbplQuery{op: "file-write-unlink", path: "/Users/ana/src/app/.git/index.lock"}, true},
	{"a folder of the project removed", sbplQuery{op: "file-write-unlink", path: "/Users/ana/src/app/build"}, true},
	{"a setuid file in the project", sbplQuery{op: "file-write-setugid", path: "/Users/ana/src/app/sh"}, false},
	{"read anywhere", sbplQuery{op: "file-read-data", path: "/Users/ana/src/other/main.go"}, true},
	{"a secret", sbplQuery{op: "file-read-data", path: "/Users/ana/.ssh/id_ed25519"}, false},
	{"allowRead's entry", sbplQuery{op: "file-read-data", path: "/Users/ana/.ssh/known_hosts"}, true},
	{"wisp's output store", sbplQuery{op: "file-read-data", path: "/Users/ana/.wisp/outputs/c1.log"}, false},
	{"wisp's threads listed", sbplQuery{op: "file-read-data", path: "/Users/ana/.wisp/threads"}, false},
	{"wisp's audit log's size", sbplQuery{op: "file-read-metadata", path: "/Users/ana/.wisp/logs/audit.jsonl"}, false},
	{"wisp's home itself", sbplQuery{op: "file-read-metadata", path: "/Users/ana/.wisp"}, false},
	{"a disk read raw", sbplQuery{op: "file-read-data", path: "/dev/rdisk0"}, false},
	{"a disk written", sbplQuery{op: "file-write-data", path: "/dev/disk0s1"}, false},
	{"bpf", sbplQuery{op: "file-read-data", path: "/dev/bpf0"}, false},
	{"pf", sbplQuery{op: "file-write-data", path: "/dev/pf"}, false},
	{"a device's name", sbplQuery{op: "file-read-metadata", path: "/dev/disk0"}, true},
	{"ls /dev", sbplQuery{op: "file-read-data", path: "/dev"}, true},
	{"/dev/null", sbplQuery{op: "file-write-data", path: "/dev/null"}, true},
	{"/dev/urandom", sbplQuery{op: "file-read-data", path: "/dev/urandom"}, true},
	{"a terminal", sbplQuery{op: "file-write-data", path: "/dev/ttys003"}, true},
	{"a new pseudo-terminal", sbplQuery{op: "file-read-data", path: "/dev/ptmx"}, true},
	{"a descriptor's alias", sbplQuery{op: "file-write-data", path: "/dev/fd/1"}, true},
	{"signal wisp", sbplQuery{op: "signal", target: "outside"}, false},
	{"signal its own processes", sbplQuery{op: "signal", target: "same-sandbox"}, true},
	{"wisp's process information", sbplQuery{op: "process-info-pidfdinfo", target: "outside"}, false},
	{"its own process information", sbplQuery{op: "process-info-pidinfo", target: "self"}, true},
	{"its children's", sbplQuery{op: "process-info-pidinfo", target: "same-sandbox"}, true},
	{"run a program", sbplQuery{op: "process-exec", path: "/usr/bin/make"}, true},
	{"syslog", sbplQuery{op: "network-outbound", path: "/private/var/run/syslog", unix: true}, true},
}

// TestSeatbeltDecisions applies each profile, as Seatbelt would, to what a
// confined command tries: what Linux refuses in every mode is refused, and
// each switch opens exactly what it names.
func TestSeatbeltDecisions(t *testing.T) {
	tmux := sbplQuery{op: "network-outbound", path: "/private/tmp/tmux-501/default", unix: true}
	bind := sbplQuery{op: "network-bind", path: "/Users/ana/src/app/test.sock", unix: true}
	dns := sbplQuery{op: "network-outbound", path: "/private/var/run/mDNSResponder", unix: true}
	tcp := sbplQuery{op: "network-outbound", path: ""}
	apple := sbplQuery{op: "appleevent-send"}
	osascript := sbplQuery{op: "process-exec", path: "/usr/bin/osascript"}
	for _, tc := range []struct {
		network, unix bool
		also          []decision
	}{
		{true, false, []decision{{"tmux's socket", tmux, false}, {"a socket bound in the project", bind, false},
			{"a name lookup", dns, true}, {"TCP", tcp, true}, {"an Apple event", apple, false}, {"osascript", osascript, false}}},
		{false, false, []decision{{"tmux's socket", tmux, false}, {"a socket bound in the project", bind, false},
			{"a name lookup", dns, false}, {"TCP", tcp, false}, {"an Apple event", apple, false}}},
		{true, true, []decision{{"tmux's socket", tmux, true}, {"a socket bound in the project", bind, true},
			{"TCP", tcp, true}, {"an Apple event", apple, true}, {"osascript", osascript, true}}},
		{false, true, []decision{{"tmux's socket", tmux, true}, {"a socket bound in the project", bind, true},
			{"TCP", tcp, false}, {"an Apple event", apple, true}}},
	} {
		t.Run(fmt.Sprintf("network=%v/unixSockets=%v", tc.network, tc.unix), func(t *testing.T) {
			spec := decisionSpec(tc.network, tc.unix)
			forms, params := parsedProfile(t, spec)
			for _, d := range append(slices.Clone(alwaysDecided), tc.also...) {
				if got, by := sbplDecide(t, forms, params, d.q); got != d.allow {
					t.Errorf("%s (%s %s): allowed = %v by %s, want %v", d.what, d.q.op, d.q.path, got, by, d.allow)
				}
			}
		})
	}
}

func parsedProfile(t *testing.T, spec sandbox.Spec) ([]sexpr, map[string]string) {
	t.Helper()
	forms, err := parseProfile(seatbelt.Profile(spec))
	if err != nil {
		t.Fatalf("malformed: %v", err)
	}
	params := map[string]string{}
	for _, p := range seatbelt.Params(spec) {
		params[p.Name] = p.Value
	}
	return forms, params
}

// TestSeatbeltPins: each folder between a root and a protected path inside
// it is pinned, outermost first, and none outside the roots or at a root:
// with /private/tmp a root holding the project, the project folder is
// pinned too, as Linux binds it.
func TestSeatbeltPins(t *testing.T) {
	spec := sandbox.Spec{
		Roots:     []string{"/private/tmp/w/app", "/private/tmp"},
		Protected: []string{"/Users/ana/.wisp", "/private/tmp/w/app/.git/hooks", "/private/tmp/w/app/.git/config", "/private/tmp/w/app/vendor/m/.git/hooks"},
	}
	var pins []string
	for _, p := range seatbelt.Params(spec) {
		if strings.HasPrefix(p.Name, "PIN_") {
			pins = append(pins, p.Value)
		}
	}
	want := []string{"/private/tmp/w", "/private/tmp/w/app", "/private/tmp/w/app/.git", "/private/tmp/w/app/vendor", "/private/tmp/w/app/vendor/m", "/private/tmp/w/app/vendor/m/.git"}
	if !slices.Equal(pins, want) {
		t.Fatalf("pins = %q\nwant %q", pins, want)
	}
	forms, params := parsedProfile(t, spec)
	for _, dir := range want {
		if ok, by := sbplDecide(t, forms, params, sbplQuery{op: "file-write-unlink", path: dir}); ok {
			t.Errorf("%s can be renamed (by %s)", dir, by)
		}
	}
	if ok, by := sbplDecide(t, forms, params, sbplQuery{op: "file-write-unlink", path: "/private/tmp/w/other"}); !ok {
		t.Errorf("a folder beside the pinned ones cannot be removed (by %s)", by)
	}
}

// TestSeatbeltReportGaps: on macOS `wisp sandbox report` names what the
// profile leaves open, and the Unix socket switch changes what it says.
func TestSeatbeltReportGaps(t *testing.T) {
	for _, unix := range []bool{false, true} {
		spec := decisionSpec(true, unix)
		lines := strings.Join(sandbox.Checked(seatbelt.Backend{}, spec).Lines(), "\n")
		for _, want := range []string{"not covered: a command can read the arguments and environment of wisp", "not covered: a command can write to every terminal", "outlives the run"} {
			if !strings.Contains(lines, want) {
				t.Errorf("unixSockets=%v: the report lacks %q:\n%s", unix, want, lines)
			}
		}
		if got := strings.Contains(lines, "allowUnixSockets"); got != unix {
			t.Errorf("unixSockets=%v: the report names allowUnixSockets = %v:\n%s", unix, got, lines)
		}
	}
}
