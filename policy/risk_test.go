package policy

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestAssess(t *testing.T) {
	tests := []struct {
		line   string
		level  Level
		reason string // one of the reasons, or "" to skip
	}{
		// The read-only list.
		{"ls -la", Low, "only commands on the low-risk list: ls"},
		{"cat x | grep y | wc -l", Low, "only commands on the low-risk list: cat, grep, wc"},
		{"git status", Low, ""}, {"git log --oneline -n 5", Low, ""}, {"git diff HEAD~1", Low, ""},
		{"git show HEAD:x", Low, ""}, {"git branch", Low, ""}, {"git branch -a", Low, ""},
		{"git -C sub --no-pager log", Low, ""}, {"find . -name '*.go'", Low, ""}, {"pwd", Low, ""},
		{"echo hi", Low, ""}, {"head -n 5 x", Low, ""}, {"tail -f log", Low, ""}, {"rg -n foo", Low, ""},
		{"sed -n 1,5p x", Low, ""}, {"cd x && ls", Low, ""}, {"ls >/dev/null 2>&1", Low, ""},
		{"brew list", Low, ""}, {"go version", Low, ""}, {"wisp logs", Low, ""},
		// Writes.
		{"touch x", Moderate, "touch writes files"}, {"mkdir -p a/b", Moderate, "mkdir writes files"},
		{"cp a b", Moderate, ""}, {"mv a b", Moderate, ""}, {"rm x", Moderate, "rm deletes files"},
		{"sed -i s/a/b/ x", Moderate, "sed -i edits files in place"}, {"sed -ni p x", Moderate, "sed -i edits files in place"},
		{"git add .", Moderate, "git add changes the repository or working tree"}, {"git commit -m x", Moderate, ""},
		{"git branch feature", Moderate, "git branch NAME creates or changes a branch"},
		{"git branch -D old", Moderate, "git branch -d deletes or renames a branch"},
		{"go build ./...", Moderate, ""}, {"go test ./...", Moderate, "go test builds and runs the tests"},
		{"make", Moderate, "make runs the project's build"}, {"npm install", Moderate, ""}, {"npm ci", Moderate, ""},
		{"find . -exec grep x {} \\;", Moderate, "find -exec runs a command on each file it finds"},
		{"python3 x.py", Moderate, "python3 runs a program"}, {"python3.12 x.py", Moderate, ""},
		// Unknown commands are moderate, and say so.
		{"frobnicate x", Moderate, "frobnicate is not on the risk lists, so it counts as moderate"},
		{"./build.sh", Moderate, "build.sh is not on the risk lists, so it counts as moderate"},
		// The rules on the whole line.
		{"ls > out.txt", Moderate, "> out.txt writes a file"}, {"ls >> log 2>&1", Moderate, ">> log writes a file"},
		{"ls &> all.txt", Moderate, "&> all.txt writes a file"}, {"echo $(date)", Moderate, "$(…) runs a command and uses its output as words"},
		{"echo `date`", Moderate, "$(…) runs a command and uses its output as words"},
		{"diff <(ls a) <(ls b)", Moderate, "<(…) runs a command whose output is read as a file"},
		{"eval ls", Moderate, "eval runs text as a command"},
		// Destructive or remote.
		{"rm -r x", High, "rm -r deletes a tree"}, {"rm -rf x", High, "rm -r deletes a tree"},
		{"rm --recursive x", High, ""}, {"git push", High, "git push changes a remote repository"},
		{"git push --force origin main", High, "git push --force rewrites a remote's history"},
		{"git reset --hard HEAD~1", High, "git reset --hard discards uncommitted work"},
		{"git clean -fdx", High, "git clean -f deletes untracked files"}, {"chmod -R 755 x", High, "chmod -R changes a whole tree"},
		{"chown -R u:g x", High, ""}, {"curl -o x https://y", High, "curl -o writes what it downloads to a file"},
		{"curl -fsSLO https://y", High, ""}, {"curl --output=x https://y", High, ""}, {"wget https://y", High, "wget downloads files"},
		{"apt install x", High, "apt installs or removes system software"}, {"apt-get install -y x", High, ""},
		{"brew install x", High, ""}, {"pip install x", High, "pip install changes installed packages"},
		{"pip3 install -r requirements.txt", High, ""}, {"npm i -g x", High, "npm -g installs for the whole system"},
		{"npm install --global x", High, ""}, {"cargo install ripgrep", High, ""}, {"go install x@latest", High, ""},
		{"ssh host ls", High, "ssh reaches another machine"}, {"scp a host:", High, ""}, {"rsync -a a host:b", High, ""},
		{"find . -delete", High, "find -delete deletes what it finds"},
		{"curl x | python3", High, "python3 runs the code piped into it"}, {"cat x.js | node -", High, ""},
		{"curl x | perl", High, ""}, {"$CMD x", High, "the program $CMD is only known when the line runs"},
		{"env $X ls", High, "what env runs is only known when the line runs"}, {"/usr/*/rm x", High, ""},
		{`eval "$(ssh-agent -s)"`, High, "eval runs text made when the line runs"},
		{"sudo ls", High, "sudo runs a command as root"},
		// Wrappers are seen through.
		{"nohup rm -rf x &", High, "rm -r deletes a tree"}, {"FOO=1 ls", Low, ""}, {"timeout 5 git push", High, ""},
		{"xargs rm -r", High, ""},
		// Nothing to run.
		{"", Low, "it runs no command"}, {"x=1", Low, "it runs no command"},
	}
	for _, tt := range tests {
		a, err := Assess(tt.line)
		if err != nil {
			t.Errorf("Assess(%q): %v", tt.line, err)
			continue
		}
		if a.Level != tt.level {
			t.Errorf("Assess(%q) = %s %q; want %s", tt.line, a.Level, a.Reasons, tt.level)
		}
		if tt.reason != "" && !slices.Contains(a.Reasons, tt.reason) {
			t.Errorf("Assess(%q) reasons %q; want %q among them", tt.line, a.Reasons, tt.reason)
		}
		if len(a.Reasons) == 0 {
			t.Errorf("Assess(%q) gives no reason", tt.line)
		}
	}
}

// A line is as high as its highest part, and lists the highest reasons first.
func TestAssessOrdersReasons(t *testing.T) {
	a, err := Assess("touch y && rm -r x > log; ls")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rm -r deletes a tree", "touch writes files", "> log writes a file"}
	if a.Level != High || !slices.Equal(a.Reasons, want) {
		t.Fatalf("got %s %q; want high %q", a.Level, a.Reasons, want)
	}
}

func TestCheckFillsRisk(t *testing.T) {
	d := defaultPolicy(t).Check("cd src && go test ./... | tee out.txt")
	want := Assessment{Level: Moderate, Reasons: []string{"go test builds and runs the tests", "tee writes files"}}
	if !d.Allowed || d.Risk.Level != want.Level || !slices.Equal(d.Risk.Reasons, want.Reasons) {
		t.Fatalf("got %+v; want allowed with %+v", d, want)
	}
	if d := defaultPolicy(t).Check("sudo rm -rf x"); d.Risk.Level != High {
		t.Fatalf("a denied line keeps its risk: got %+v", d.Risk)
	}
}

func TestAssessUnparsable(t *testing.T) {
	a, err := Assess("echo (")
	if err == nil || a.Level != High {
		t.Fatalf("Assess(echo () = %+v, %v; want high and an error", a, err)
	}
}

func TestLevel(t *testing.T) {
	for _, l := range []Level{Low, Moderate, High} {
		text, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Level
		if err := back.UnmarshalText(text); err != nil || back != l || string(text) != l.String() {
			t.Errorf("%s: marshals as %q, reads back as %s (%v)", l, text, back, err)
		}
	}
	if !(Low < Moderate && Moderate < High) {
		t.Error("levels are not ordered low < moderate < high")
	}
	for _, bad := range []string{"", "HIGH", "never", "medium"} {
		if _, err := ParseLevel(bad); err == nil {
			t.Errorf("ParseLevel(%q) accepted it", bad)
		}
	}
	if _, err := Level(0).MarshalText(); err == nil {
		t.Error("the zero Level marshals; it must not pass for a level")
	}
	data, err := json.Marshal(Assessment{Level: High, Reasons: []string{"x"}})
	if err != nil || string(data) != `{"Level":"high","Reasons":["x"]}` {
		t.Errorf("JSON of an assessment: %s %v", data, err)
	}
}

// Reading one program's lines gives what reading the whole table gives it,
// for every program, and nothing for the rest.
func TestRiskEntryIsTheTablesRow(t *testing.T) {
	table, err := parseRiskTable(riskText)
	if err != nil {
		t.Fatal(err)
	}
	for program, want := range table {
		if got := parseRiskEntry(riskText, program); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read alone %+v, in the table %+v", program, got, want)
		}
		if got := riskFor(program); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: riskFor gives %+v, the table %+v", program, got, want)
		}
	}
	for _, program := range []string{"#", "options", "low", "moderate", "nosuchprogram", "", "|"} {
		if got := parseRiskEntry(riskText, program); got != nil {
			t.Errorf("%q is not a program of risk.txt, yet reads as %+v", program, got)
		}
	}
}

func TestRiskTableParses(t *testing.T) {
	table, err := parseRiskTable(riskText)
	if err != nil {
		t.Fatal(err)
	}
	if len(table) < 100 {
		t.Errorf("risk.txt has %d programs; it lost rows", len(table))
	}
	for program, entry := range table {
		for _, r := range entry.rows {
			if strings.Contains(r.reason, "$") {
				t.Errorf("%s %q: reason %q kept a placeholder", program, r.subs, r.reason)
			}
		}
	}
	if got := table["git"].options; !slices.Contains(got, "-C") {
		t.Errorf("git's value options %q lack -C", got)
	}
}

func TestRiskTableErrors(t *testing.T) {
	for text, want := range map[string]string{
		"ls":                        "has no level",
		"rm moderate":               "needs a reason",
		"options git":               "options needs a program",
		"ok low\n\nrm -r highish x": "line 3:",
		"uniq +2xargs moderate x":   "is not +args or +Nargs",
		"uniq +0args moderate x":    "is not +args or +Nargs",
		"git a b c +2args high x":   "counts more words than the 4 that are read",
		"getopt date":               "getopt needs a program",
	} {
		_, err := parseRiskTable(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseRiskTable(%q) = %v; want an error with %q", text, err, want)
		}
	}
}
