package sandbox_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func exampleSpec(network bool) sandbox.Spec {
	return sandbox.Spec{
		Roots:     []string{"/Users/ana/src/app", "/private/tmp", "/private/var/folders/x1/abc/T", "/Users/ana/Library/Caches"},
		Protected: []string{"/Users/ana/.wisp", "/Users/ana/src/app/.git/hooks", "/Users/ana/src/app/.git/config"},
		Home:      "/Users/ana/.wisp",
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, filepath.Join("testdata", "seatbelt-"+tc.name+".sb"), sandbox.SeatbeltProfile(tc.spec))
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
	plain := sandbox.Spec{Roots: []string{"/r0", "/r1", "/r2", "/r3", "/r4", "/r5"}, Protected: []string{"/h0", "/h1", "/h2", "/h3", "/h4", "/h5"}}
	evil := sandbox.Spec{Roots: hostile, Protected: hostile}
	if got, want := sandbox.SeatbeltProfile(evil), sandbox.SeatbeltProfile(plain); got != want {
		t.Fatalf("hostile paths changed the profile:\n%s", got)
	}
	args := sandbox.SeatbeltArgs(evil, "echo hi")
	for i, p := range hostile {
		if !slices.Contains(args, fmt.Sprintf("ROOT_%d=%s", i, p)) || !slices.Contains(args, fmt.Sprintf("PROTECT_%d=%s", i, p)) {
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

func TestSeatbeltArgs(t *testing.T) {
	spec := sandbox.Spec{Roots: []string{"/proj"}, Protected: []string{"/home/.wisp"}, Network: true}
	args := sandbox.SeatbeltArgs(spec, "make test")
	want := []string{"/usr/bin/sandbox-exec", "-D", "ROOT_0=/proj", "-D", "PROTECT_0=/home/.wisp", "-p", sandbox.SeatbeltProfile(spec), "/bin/sh", "-c", "make test"}
	if !slices.Equal(args, want) {
		t.Fatalf("args = %q\nwant %q", args, want)
	}
}

// TestSeatbeltProfilesWellFormed parses every profile the generator can
// emit (its text depends only on the counts and the network switch): the
// parentheses balance, strings close, each rule is an allow, deny or
// version form, every parameter it names has a -D, and the protected
// denials come after the roots' allow.
func TestSeatbeltProfilesWellFormed(t *testing.T) {
	for roots := 0; roots <= 4; roots++ {
		for protected := 0; protected <= 4; protected++ {
			for _, network := range []bool{true, false} {
				spec := sandbox.Spec{Roots: numbered("/r", roots), Protected: numbered("/p", protected), Network: network}
				name := fmt.Sprintf("roots=%d/protected=%d/network=%v", roots, protected, network)
				t.Run(name, func(t *testing.T) { checkProfile(t, spec) })
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
	forms, err := parseProfile(sandbox.SeatbeltProfile(spec))
	if err != nil {
		t.Fatalf("malformed: %v\n%s", err, sandbox.SeatbeltProfile(spec))
	}
	if len(forms) == 0 || forms[0].String() != "(version 1)" {
		t.Fatalf("the profile does not open with (version 1)")
	}
	params := map[string]bool{}
	for _, p := range sandbox.SeatbeltParams(spec) {
		params[p.Name] = true
	}
	allowAt, protectAt := -1, -1
	for i, f := range forms[1:] {
		if h := f.head(); h != "allow" && h != "deny" {
			t.Fatalf("rule %d is %s, not allow or deny", i, f)
		}
		checkParams(t, f, params)
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
	if got := strings.Contains(sandbox.SeatbeltProfile(spec), "(deny network*)"); got == spec.Network {
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
	checked, err := sandbox.Seatbelt{}.Check(spec)
	if err != nil || len(checked.Unprotected) != 0 {
		t.Fatalf("Check = %v, %v; want every path covered", checked.Unprotected, err)
	}
	argv, err := sandbox.Seatbelt{}.Command(spec, "true")
	if err != nil || argv[0] != sandbox.SeatbeltExec {
		t.Fatalf("Command = %q, %v", argv, err)
	}
}
