package policy

import (
	"regexp"
	"strings"
	"testing"
)

// TestCommandPrefixes pins the prefix a person is offered for one command,
// and that a command which destroys, publishes or runs any code is offered
// its exact line only.
func TestCommandPrefixes(t *testing.T) {
	cases := []struct {
		line, prefix string
		exact        string // part of ExactWhy when prefix is ""
	}{
		{"go test ./pkg/a", "go test", ""},
		{"go test -run TestX -count=1 ./...", "go test", ""},
		{"go build -o bin/x ./cmd/x", "go build", ""}, // go's row names no build: its first word is kept
		{"git commit -m 'fix the thing'", "git commit", ""},
		{"git -C sub commit -m x", "git commit", ""},
		{"npm run test", "npm run test", ""},
		{"npm run test -- --watch", "npm run test", ""},
		{"npm install lodash", "npm install", ""},
		{"cargo build --release", "cargo build", ""},
		{"make", "make", ""},
		{"make -j4 build", "make", ""}, // a target, as the table names no make subcommand
		{"touch first", "touch", ""},
		{"mkdir -p internal/store", "mkdir", ""},
		{"./configure --prefix=/opt", "./configure", ""},
		{"touch notes.txt", "touch", ""},
		{"go install ./cmd/tool", "go install", ""}, // high, but installs: a prefix may hold it
		{"pip install -r requirements.txt", "pip install", ""},
		{"git push origin main", "", "destroys or publishes"},
		{"npm publish", "", "destroys or publishes"},
		{"cargo publish", "", "destroys or publishes"},
		{"gh pr create", "", "destroys or publishes"},
		{"dd if=/dev/zero of=x", "", "destroys or publishes"},
		{"sudo make install", "", "any code"},
		{"rm -r build", "", "raise its risk"},
		{"git reset --hard HEAD~1", "", "raise its risk"},
		{"chmod -R 777 .", "", "raise its risk"},
		{"git -c core.pager=evil log", "", "raise its risk"},
		{"python3 script.py", "", "any code"},
		{"sh -c 'go test'", "", "any code"},
		{"eval go test", "", "any code"},
		{"timeout 10 go test ./...", "", "wrapper"},
		{"GOFLAGS=-x go test ./...", "", "wrapper"},
		{"$tool test", "", "only known when the line runs"},
	}
	for _, c := range cases {
		lc, err := LineCommands(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		cmd := lc.Commands[0]
		if cmd.Prefix != c.prefix {
			t.Errorf("%s: prefix %q, want %q (exact: %s)", c.line, cmd.Prefix, c.prefix, cmd.ExactWhy)
			continue
		}
		if c.prefix == "" && !strings.Contains(cmd.ExactWhy, c.exact) {
			t.Errorf("%s: exact only because %q, want it to say %q", c.line, cmd.ExactWhy, c.exact)
		}
	}
}

// TestHoldsCommand: a prefix covers commands whose words begin with its
// words, never a longer program name, another program by the same base
// name, or a command that can only be held exactly.
func TestHoldsCommand(t *testing.T) {
	cases := []struct {
		prefix, line string
		want         bool
	}{
		{"go test", "go test ./pkg/b", true},
		{"go test", "go test", true},
		{"go test", "go vet ./...", false},
		{"go test", "go testx", false},
		{"go test", "/tmp/evil/go test ./...", false},
		{"npm run test", "npm run test:unit", false},
		{"npm run test", "npm run build", false},
		{"make", "make install", true},
		{"git commit", "git commit -am x", true},
		{"git commit", "git -c core.hooksPath=/tmp/h commit -m x", false},
		{"rm", "rm -r build", false},
		{"git", "git push", false},
	}
	for _, c := range cases {
		lc, err := LineCommands(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if got := HoldsCommand(c.prefix, lc.Commands[0]); got != c.want {
			t.Errorf("%q holds %q: %v, want %v", c.prefix+PrefixMark, c.line, got, c.want)
		}
	}
}

// TestLineRules: the rules on the whole line are counted apart from its
// commands, so a held prefix can be weighed against them.
func TestLineRules(t *testing.T) {
	cases := []struct {
		line  string
		rules Level
		n     int
	}{
		{"go test ./...", 0, 1},
		{"go test ./... > out.txt", Moderate, 1},
		{"go test $(cat pkgs)", Moderate, 2},
		{"go test ./... && git commit -m x", 0, 2},
		{"go test ./... | tee log", 0, 2},
	}
	for _, c := range cases {
		lc, err := LineCommands(c.line)
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if lc.Rules != c.rules || len(lc.Commands) != c.n {
			t.Errorf("%s: rules %v and %d commands, want %v and %d", c.line, lc.Rules, len(lc.Commands), c.rules, c.n)
		}
	}
}

// FuzzSubcommandWord: the hand-written test takes exactly what the
// pattern it replaced took.
func FuzzSubcommandWord(f *testing.F) {
	for _, s := range []string{"test", "run-script", "a:b_c-1", "1abc", "Abc", "-x", "", "x=y", "./go", "é"} {
		f.Add(s)
	}
	pattern := regexp.MustCompile(`^[a-z][a-z0-9:_-]*$`)
	f.Fuzz(func(t *testing.T, s string) {
		if subcommandWord(s) != pattern.MatchString(s) {
			t.Fatalf("subcommandWord(%q) = %v, the pattern says %v", s, subcommandWord(s), pattern.MatchString(s))
		}
	})
}
