package refusal

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// fixture is one output in testdata/corpus: the command, where it ran, the
// sandbox it ran under, what the check must say, and the output itself.
// linux-*.txt are captured from real tools under Landlock (-update
// recaptures them); darwin-*.txt and other-*.txt are written by hand from
// decisions D8 and D9, session ce87576a and the tools' own messages.
type fixture struct {
	comment                  string
	command, goos, dir, home string
	roots, protected, links  []string // links: "FROM -> TO", a symlink the resolver follows
	setID                    []string // set-ID programs, as the fixture's system has them
	networkOff, unixSockets  bool
	verdict                  Verdict
	paths, refused           []string
	errno, model, person     string
	output                   []byte
}

const fixtureWork = "/w" // $WORK in a fixture, when checked without a disk

// TestCorpus checks every fixture without a kernel: pure parsing, with a
// resolver that knows only the fixture's symlinks.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/corpus: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			f := readFixture(t, file).replace("$WORK", fixtureWork)
			defer setGOOS(f.goos)()
			in := Input{Output: f.output, Dir: f.dir, Home: f.home, Roots: f.roots, Protected: f.protected,
				NetworkOff: f.networkOff, UnixSockets: f.unixSockets, Command: f.command, Resolve: linkResolver(f.links),
				SetID: func(p string) bool { return slices.Contains(f.setID, p) }}
			r := Check(in)
			got := fixture{verdict: r.Verdict, paths: r.Paths, refused: r.Refused, errno: r.Errno,
				model: r.ModelLine(f.roots, true), person: r.PersonNote(f.roots)}
			want := fixture{verdict: f.verdict, paths: f.paths, refused: f.refused, errno: f.errno, model: f.model, person: f.person}
			if diff := got.diff(want); diff != "" {
				t.Errorf("%s\n%s", f.output, diff)
			}
		})
	}
}

func (got fixture) diff(want fixture) string {
	var b strings.Builder
	check := func(name string, g, w any) {
		if fmt.Sprint(g) != fmt.Sprint(w) {
			fmt.Fprintf(&b, "%s: got %q\n%s  want %q\n", name, g, strings.Repeat(" ", len(name)), w)
		}
	}
	check("verdict", got.verdict, want.verdict)
	check("paths", got.paths, want.paths)
	check("refused", got.refused, want.refused)
	check("errno", got.errno, want.errno)
	check("model", got.model, want.model)
	check("person", got.person, want.person)
	return b.String()
}

// setGOOS words the fixture's messages as on its platform.
func setGOOS(os string) (restore func()) {
	old := goos
	if os != "" {
		goos = os
	}
	return func() { goos = old }
}

// linkResolver resolves lexically, following only the listed symlinks.
func linkResolver(links []string) func(string) string {
	return func(p string) string {
		p = filepath.Clean(p)
		for _, l := range links {
			from, to, _ := strings.Cut(l, " -> ")
			if within(p, from) {
				p = to + p[len(from):]
			}
		}
		return p
	}
}

// replace swaps old for new in every field, output included.
func (f fixture) replace(old, new string) fixture {
	r := func(s string) string { return strings.ReplaceAll(s, old, new) }
	all := func(list []string) []string {
		out := make([]string, len(list))
		for i, s := range list {
			out[i] = r(s)
		}
		return out
	}
	f.command, f.dir, f.home, f.model, f.person = r(f.command), r(f.dir), r(f.home), r(f.model), r(f.person)
	f.roots, f.protected, f.links, f.paths, f.refused = all(f.roots), all(f.protected), all(f.links), all(f.paths), all(f.refused)
	f.output = []byte(r(string(f.output)))
	return f
}

func readFixture(t *testing.T, file string) fixture {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{verdict: None}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, ": ")
		if !ok || !f.set(key, value) {
			t.Fatalf("%s: cannot read header line %q", file, line)
		}
	}
	for _, af := range a.Files {
		if af.Name == "output" {
			f.output = af.Data
		}
	}
	return f
}

func (f *fixture) set(key, value string) bool {
	text := map[string]*string{"command": &f.command, "goos": &f.goos, "dir": &f.dir, "home": &f.home,
		"errno": &f.errno, "model": &f.model, "person": &f.person}
	list := map[string]*[]string{"root": &f.roots, "protected": &f.protected, "link": &f.links,
		"path": &f.paths, "refused": &f.refused, "setid": &f.setID}
	switch {
	case text[key] != nil:
		*text[key] = value
	case list[key] != nil:
		*list[key] = append(*list[key], value)
	case key == "network":
		f.networkOff = value == "off"
	case key == "unix-sockets":
		f.unixSockets = value == "on"
	case key == "verdict":
		f.verdict = Verdict(strings.TrimPrefix(value, "none"))
	default:
		return false
	}
	return true
}

func (f fixture) format() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", f.comment)
	line := func(key, value string) {
		if value != "" {
			fmt.Fprintf(&b, "%s: %s\n", key, value)
		}
	}
	lines := func(key string, values []string) {
		for _, v := range values {
			line(key, v)
		}
	}
	line("command", f.command)
	line("goos", f.goos)
	line("dir", f.dir)
	line("home", f.home)
	lines("root", f.roots)
	lines("protected", f.protected)
	lines("link", f.links)
	line("network", map[bool]string{true: "off", false: "on"}[f.networkOff])
	line("verdict", orNone(string(f.verdict)))
	lines("path", f.paths)
	lines("refused", f.refused)
	line("errno", f.errno)
	line("model", f.model)
	line("person", f.person)
	return txtar.Format(&txtar.Archive{Comment: []byte(b.String()), Files: []txtar.File{{Name: "output", Data: f.output}}})
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func writeFixture(t *testing.T, name string, f fixture) {
	t.Helper()
	if err := os.WriteFile(filepath.Join("testdata", "corpus", name+".txt"), f.format(), 0o644); err != nil {
		t.Fatal(err)
	}
}
