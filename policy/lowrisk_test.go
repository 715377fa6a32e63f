package policy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A command rated low runs with nobody asked at threshold moderate, so no
// use of a low program that writes a file or runs a command may rate low.
// Each line here does one of those (most of them were rated low before).
func TestLowProgramsThatWriteOrRun(t *testing.T) {
	tests := []struct {
		line   string
		level  Level
		reason string
	}{
		// sed's script: the e command and flag, w and W, a script wisp cannot read.
		{"sed -n '1e touch X' F", Moderate, sedRuns},
		{"sed 's/x/y/e' F", Moderate, sedRuns},
		{"sed 's/x/y/gw out' F", Moderate, sedWrites},
		{"sed -n 'w out' F", Moderate, sedWrites},
		{"sed -n '/x/W out' F", Moderate, sedWrites},
		{"sed -e p -e '1e id' F", Moderate, sedRuns},
		{"sed --expression='1e id' F", Moderate, sedRuns},
		{"sed -ne'1e id' F", Moderate, sedRuns},
		{"sed -s -n -- '$e id' F", Moderate, sedRuns},
		{"sed 's|a|b|e' F", Moderate, sedRuns},
		{"sed 's/[/]/x/e' F", Moderate, sedRuns},
		{"sed '1!e id' F", Moderate, sedRuns},
		{"sed '0~2 e id' F", Moderate, sedRuns},
		{"sed 'y/a/b/;e id' F", Moderate, sedRuns},
		{"sed ':a;e id' F", Moderate, sedRuns},
		{"sed -n -e '/a/,/b/{e id' -e '}' F", Moderate, sedRuns},
		{"sed -n 'p' -e '1e id' F", Moderate, sedRuns}, // with -e, p is a file
		{"sed -n -f script.sed F", Moderate, sedFromFile},
		{"sed -n \"$S\" F", Moderate, "sed's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"sed -n 1p $F", Moderate, "sed's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"sed -n 1p *", Moderate, "sed's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"sed -n --exp='1e id' p", Moderate, "sed --exp is not an option wisp reads, so it may write files or run commands"},
		{"sed -I '' s/a/b/ F", Moderate, "sed -i edits files in place"},
		// git's own options and the options that write or run.
		{"git -c core.fsmonitor='touch X' status", Moderate, "git -c sets git's configuration, which can name commands git runs"},
		{"git --config-env=core.pager=X log", Moderate, "git -c sets git's configuration, which can name commands git runs"},
		{"git --config-env core.pager=X log", Moderate, ""},
		{"git --exec-path=. status", Moderate, ""},
		{"git -C sub -c core.pager=x log", Moderate, ""},
		{"git log --output F", Moderate, "git log --output writes a file"},
		{"git log --output=F", Moderate, "git log --output writes a file"},
		{"git log --outpu=F", Moderate, "git log --output writes a file"},
		{"git diff --output=F", Moderate, "git diff --output writes a file"},
		{"git show --output=F HEAD", Moderate, ""}, {"git rev-list --output=F HEAD", Moderate, ""},
		{"git stash list --output=F", Moderate, "git stash list --output writes a file"},
		{"git grep -O x", Moderate, "git grep -O opens the files with a command"},
		{"git grep --open-files-in-pager=vi x", Moderate, ""},
		{"git branch --set-upstream-to=origin/main", Moderate, "git branch -u changes a branch's settings"},
		{"git branch --edit-description", Moderate, ""},
		// Output operands, output files.
		{"uniq IN OUT", Moderate, "uniq IN OUT writes the file OUT"},
		{"uniq -c -f 1 IN OUT", Moderate, ""}, {"uniq - OUT", Moderate, ""},
		{"uniq *.txt", Moderate, "uniq's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"xxd IN OUT", Moderate, "xxd IN OUT writes the file OUT"}, {"xxd -r -p IN OUT", Moderate, ""},
		{"sort --compress-program=gzip F", Moderate, "sort --compress-program runs a program"},
		{"sort --out=F G", Moderate, "sort -o writes a file"}, {"sort '-oa b' F", Moderate, "sort -o writes a file"},
		{"sort {-o,x}y F", Moderate, "sort's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"sort $OPTS F", Moderate, "sort's arguments are only known when the line runs, and may be ones that write a file or run a command"},
		{"tree -o out", Moderate, "tree -o writes its listing to a file"}, {"tree -R -L 2 -H .", Moderate, ""},
		{"file -C -m magic", Moderate, "file -C writes a compiled magic file"},
		{"history -w out", Moderate, "history -w writes the shell's history to a file"},
		{"base64 -o out in", Moderate, "base64 -o writes a file"},
		{"tldr --update", Moderate, "tldr --update downloads pages into its cache"},
		{"yq -i '.a = 1' f.yaml", Moderate, "yq -i edits files in place"},
		{"go env -w GOFLAGS=-x", Moderate, "go env -w changes go's settings file"},
		{"go list -export ./...", Moderate, "go list -export builds the packages"},
		{"go list -toolexec=./x ./...", Moderate, ""},
		{"pip list --log out", Moderate, "pip list --log writes a log file, and --python runs another program"},
		{"npm version patch", Moderate, "npm version NEWVERSION changes package.json and runs its version scripts"},
		{"npm help install", Moderate, "npm help opens a viewer, which the project's .npmrc can name"},
		// Pagers and the programs they run.
		{"man -P 'touch X' ls", Moderate, "man -P runs another program to show the page"},
		{"man --pager=x ls", Moderate, ""}, {"man -Px ls", Moderate, ""}, {"man -H ls", Moderate, ""},
		{"man -C conf ls", Moderate, ""},
		{"less +'!touch X' F", Moderate, "less +cmd runs pager commands at start, which can run a shell command or write a file"},
		{"less '+|touch X' F", Moderate, ""}, {"less ++sF F", Moderate, ""}, {"more +'!id' F", Moderate, ""},
		{"less -o log F", Moderate, "less -o writes what it shows to a file"},
		{"less --log-file=log F", Moderate, ""},
		{"less -k keys F", Moderate, "less -k reads key bindings, which can set the commands it runs"},
		{"ag --pager x foo", Moderate, "ag --pager runs its output through a command"},
		{"ack --pager=x foo", Moderate, ""}, {"ack --ackrc=x foo", Moderate, ""},
		{"systemctl status -H host", Moderate, "systemctl status -H runs ssh to reach another machine"},
		// Programs named in the arguments.
		{"rg --pre ./x foo", Moderate, "rg --pre runs a program on each file it searches"},
		{"rg --pre=x foo", Moderate, ""}, {"rg --hostname-bin=x foo", Moderate, "rg --hostname-bin runs a program"},
		{"fd -x touch", Moderate, "fd -x runs a command on each file it finds"},
		{"fd -Hx touch", Moderate, "fd -x runs a command on each file it finds"},
		{"fd -Hx rm -r", High, "rm -r deletes a tree"}, {"fd -xrm -r", High, "rm -r deletes a tree"},
		{"fd --exec=rm -r", High, "rm -r deletes a tree"},
		{"fd -x rm -r", High, "rm -r deletes a tree"}, {"fd . -X rm", Moderate, "rm deletes files"},
		{"find -- . -delete", High, "find -delete deletes what it finds"},
		{"find . $ACTION", Moderate, ""},
		{"hash -p ./x ls", Moderate, "hash -p makes a name run another program"},
		{"brew info ./evil.rb", Moderate, "brew loads the formula file ./evil.rb, which is Ruby code it runs"},
		{"tar --to-command=x -xf a.tar", Moderate, "tar --to-command runs a command"},
		{"zip -TT x a.zip f", Moderate, "zip -TT runs a command to test the archive"},
		{"docker --host=ssh://x ps", Moderate, "docker ps -H talks to another daemon, which may be on another machine"},
		{"apt list -o Dir::Etc=x", Moderate, "apt list -o sets apt's configuration, which can name commands apt runs"},
		// The system.
		{"date -s 12:00", High, "date -s sets the system clock"}, {"date --set=12:00", High, ""},
		{"date 0101", High, ""}, {"date -us 12:00", High, ""},
		{"hostname evil", High, "hostname NAME changes the machine's name"},
		// Wrappers: what they add, what they write, what they hide.
		{"xargs grep x", Moderate, "xargs adds words from its input to the command, and they may be options that write files or run commands"},
		{"command time -o out ls", Moderate, "time -o writes its report to a file"},
		{"env time --output=out ls", Moderate, ""},
		{"nohup ls", Moderate, "nohup writes the command's output to nohup.out when it would go to a terminal"},
		{"env -vS'rm -rf x'", High, "rm -r deletes a tree"},
		{"env -iS 'rm -rf x'", High, "rm -r deletes a tree"},
		{"env -S 'nohup rm -rf x'", High, "rm -r deletes a tree"},
		{"env -S '-i rm -rf x'", High, "rm -r deletes a tree"},
		{"env -iu FOO rm -rf x", High, "rm -r deletes a tree"},
		{`env -S 'rm\_-rf\_x'`, High, "rm -r deletes a tree"},
		{`env -S '"rm" -rf x'`, High, "rm -r deletes a tree"},
		{"env -S '${X} x'", High, "what env runs is only known when the line runs"},
		{"xargs -tI {} rm -r {}", High, "rm -r deletes a tree"},
		{"arch -x86_64 rm -rf x", High, "rm -r deletes a tree"},
		// Variables that make a program run something.
		{"GIT_PAGER='touch X' git log", Moderate, "touch writes files"},
		{"MANPAGER='sh -c \"touch X\"' man ls", Moderate, "touch writes files"},
		{"PAGER='rm -rf x' man ls", High, "rm -r deletes a tree"},
		{"env PAGER='touch X' man ls", Moderate, "touch writes files"},
		{"env -S 'PAGER=./x man' ls", Moderate, "x is not on the risk lists, so it counts as moderate"},
		{"LESSOPEN='|touch X %s' less F", Moderate, "touch writes files"},
		{"LESS='-o log' less F", Moderate, "less -o writes what it shows to a file"},
		{"MANOPT='-P x' man ls", Moderate, "man -P runs another program to show the page"},
		{"GIT_PAGER=$X git log", High, "what GIT_PAGER runs is only known when the line runs"},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status", Moderate,
			"GIT_CONFIG_COUNT=… changes git's configuration, which can name commands git runs"},
		{"HOME=. git status", Moderate, "HOME=… makes programs read another configuration, which can name commands they run"},
		{"GIT_EXTERNAL_DIFF=./x git diff", Moderate, "x is not on the risk lists, so it counts as moderate"},
		{"LD_PRELOAD=./x.so ls", Moderate, "LD_PRELOAD=… makes programs load other code"},
		{"PATH=.:$PATH ls", Moderate, "PATH=… changes which program each name runs"},
		{"export PATH=.; ls", Moderate, "PATH=… changes which program each name runs"},
		{"PATH=.; ls", Moderate, ""}, {"declare -x LD_PRELOAD=x; ls", Moderate, ""},
		{"RIPGREP_CONFIG_PATH=./rc rg foo", Moderate, "RIPGREP_CONFIG_PATH=… gives a program options, some of which write files or run commands"},
		{"NODE_OPTIONS='--require ./x.js' npm ls", Moderate, "NODE_OPTIONS=… makes programs load other code"},
		{"GOFLAGS=-toolexec=./x go list ./...", Moderate, ""},
		{"DOCKER_HOST=ssh://x docker ps", Moderate, ""},
		{"read PATH", Moderate, "read sets PATH, which changes what later commands run"},
		{`read "$N"`, Moderate, `read sets "$N", which changes what later commands run`},
		{`printf -v "$N" .`, Moderate, ""},
		{`export "PATH=."; ls`, Moderate, "PATH=… changes which program each name runs"},
		{`export 'LD_PRELOAD'=x; ls`, Moderate, "LD_PRELOAD=… makes programs load other code"},
		{`local "PAGER=touch x"; man ls`, Moderate, "touch writes files"},
		{`declare -x "$N=."; ls`, Moderate, `"$N=." sets a variable whose name is only known when the line runs`},
		{"printf -v PATH .", Moderate, "printf -v sets PATH, which changes what later commands run"},
		{"for HOME in .; do git status; done", Moderate, "for HOME in … sets HOME, which changes what the commands after it run"},
		{": ${HOME:=.}; git status", Moderate, "${HOME:=…} sets HOME, which changes what the commands after it run"},
		{"go doc -http", Moderate, "go doc -http downloads and runs a documentation server"},
		{"brew info --github git", Moderate, "brew info --github opens a web browser"},
		{"declare -n x=PATH", Moderate, "declare -n makes one variable name stand for another, which can be one that changes what commands run"},
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
	}
}

// The harmless forms of the same programs stay low.
func TestLowProgramsStayLow(t *testing.T) {
	for _, line := range []string{
		"sed -n 1p F", "sed -n '1,5p' F", "sed 's/a/b/g' F", "sed -E 's/(a|b)+/x/' F", "sed -n '/error/p' F",
		"sed '/^#/d;s/ *$//' F", "sed -n '$=' F", `sed 's/[0-9]\+/N/g' F`, "sed -e 's/a/b/' -e 's/c/d/' F",
		"sed 'y/abc/xyz/' F", "sed '1i header' F", `sed '$a\' F`, "sed -n '/start/,/end/{/x/p}' F",
		"sed 's/hello/world/' F", "sed -n l F", "sed 's/a/b/I' F", "sed '1~3d' F", "sed -n '2{p;q}' F",
		"sed 's#/usr#/opt#g' F", "sed 'r header.txt' F", "sed '1!G;h;$!d' F", "sed = F", "sed --sandbox '1e id' F",
		"sed -n -e '/x/{' -e p -e '}' F", "sed 's/[[:space:]]*$//' F", "sed -z 's/\\n/,/g' F", "sed -n 1p ./$f",
		"git status", "git log", "git log -c", "git diff --stat", "git -C sub log", "GIT_PAGER=cat git log",
		"git --no-pager log -p", "git log --oneline --output-indicator-new=+", "git grep -n foo", "git grep -o foo",
		"git branch -a", "git show HEAD:x", "git stash list", "git blame x",
		"uniq F", "uniq -c F", "uniq -cf 1 F", "uniq -d -", "xxd F", "xxd -l 16 F", "xxd -s 0x10 -c 8 F",
		"man ls", "man 3 printf", "man -k printf", "MANPAGER=cat man ls", "PAGER=less man ls",
		"sort F", "sort -k2,2 -t, F", "sort -rn F", "sort -u -- *.txt",
		"less F", "less +G F", "less +F F", "less +/error F", "less -R F", "less -N +100 F", "more F",
		"tree -L 2", "file x", "file -b x", "date", "date +%s", "date -Iseconds", "date -d yesterday +%F", "date -u",
		"hostname", "hostname -f", "history", "history 10", "hash", "hash -r", "base64 in", "base64 -d in",
		"yq '.a' f.yaml", "go env GOPATH", "go list ./...", "go version", "npm ls", "npm version", "npm view x",
		"pip list", "docker ps", "systemctl status x", "brew info git", "rg -n foo", "rg -o foo", "fd -e go", "fd -tx", "fd -Htf -e go",
		"column -t -o ' | ' F", "ps -o pid,cmd", "grep -o x F", "od -c F", "find . -name '*.go'",
		"FOO=1 ls", "export FOO=bar", "LANG=C sort F", "TZ=UTC date", "read line", "read -r a b", "printf -v x %s y",
		"ls $DIR", `cat "$f"`, `grep x "$f"`, "grep x *.go", "echo $HOME", "env", "env LANG=C ls", "command -v git", "arch",
		"time ls", "nice ls",
	} {
		a, err := Assess(line)
		if err != nil || a.Level != Low {
			t.Errorf("Assess(%q) = %s %q (%v); want low", line, a.Level, a.Reasons, err)
		}
	}
}

// Wrappers that hid a command from the deny list no longer do.
func TestWrappersDoNotHideDeniedCommands(t *testing.T) {
	p := defaultPolicy(t)
	for _, line := range []string{
		"env -iu FOO sudo x", "env -vS'sudo x'", "env -S 'nohup sudo x'",
		"nohup nohup nohup nohup nohup nohup nohup nohup nohup rm -rf /",
		"PAGER='sudo x' man ls", `env -S '"sudo" x'`, "fd -Hx sudo rm", "fd -xsudo rm",
	} {
		if d := p.Check(line); d.Allowed {
			t.Errorf("Check(%q) allowed it (risk %s %q)", line, d.Risk.Level, d.Risk.Reasons)
		}
	}
}

// lowRowGuards lists, for every row of risk.txt rated low, the uses of that
// command known to write a file or run a command: each must rate above low.
// An entry with none says the program was gone through and has no such
// option. A new low row fails TestLowRowsAreGuarded until it is listed.
func lowRowGuards() map[string][]string {
	g := map[string][]string{
		"sed":  {"sed -n '1e touch X' F", "sed 's/a/b/w out' F", "sed -i s/a/b/ F", "sed -f s.sed F"},
		"less": {"less -o log F", "less +'!id' F", "less -k keys F", "LESSOPEN='|touch x %s' less F"},
		"more": {"more -o log F", "more +'!id' F"},
		"rg":   {"rg --pre x foo", "rg --hostname-bin=x foo", "RIPGREP_CONFIG_PATH=rc rg foo"},
		"ag":   {"ag --pager x foo"}, "ack": {"ack --pager=x foo", "ack --ackrc=x foo"},
		"fd":   {"fd -x id", "fd --exec id", "fd -X id", "fd --exec-batch id"},
		"find": {"find . -delete", "find -- . -delete", "find . -exec id ;", "find . -execdir id ;", "find . -ok id ;", "find . -fprint x", "find . -fls x"},
		"file": {"file -C"}, "tree": {"tree -o x", "tree -R"},
		"sort": {"sort -o x F", "sort --output=x F", "sort --compress-program=x F"},
		"uniq": {"uniq IN OUT"}, "xxd": {"xxd IN OUT"}, "date": {"date -s 1", "date 0101"},
		"hostname": {"hostname x", "hostname -F x"}, "history": {"history -w x", "history -a x"},
		"hash": {"hash -p x ls"}, "base64": {"base64 -o x in"}, "tldr": {"tldr --update"}, "yq": {"yq -i . f"},
		"man":     {"man -P x ls", "man --pager=x ls", "man -H ls", "man -X ls", "man -C x ls", "MANPAGER=./x man ls"},
		"time":    {"command time -o x ls"},
		"nohup":   {"nohup ls"},
		"env":     {"env PAGER=./x man ls", "env -S 'rm -rf x'", "env -vS'rm -rf x'"},
		"command": {"command rm x"}, "builtin": {"builtin source x"},
		"arch": {"arch -x86_64 touch x"},
		"read": {"read PATH"}, "printf": {"printf -v PATH x"}, "getopts": {"getopts a PATH"},
		"declare": {"declare -n x=PATH", "declare -x PATH=."}, "typeset": {"typeset -n x=PATH"},
		"local": {"local -n x=PATH"}, "readonly": {"readonly PATH=."}, "export": {"export PATH=."},
		"alias":     {"alias ls='rm -rf x'"},
		"git blame": {"git blame --output=x f"}, "git diff": {"git diff --output=x", "GIT_EXTERNAL_DIFF=./x git diff"},
		"git log":    {"git log --output=x", "git -c core.pager=x log", "GIT_PAGER=./x git log"},
		"git reflog": {"git reflog --output=x"}, "git rev-list": {"git rev-list --output=x HEAD"},
		"git shortlog": {"git shortlog --output=x"}, "git show": {"git show --output=x"},
		"git whatchanged": {"git whatchanged --output=x"}, "git stash list": {"git stash list --output=x"},
		"git stash show": {"git stash show --output=x"}, "git grep": {"git grep -O x", "git grep --open-files-in-pager=x y"},
		"git status": {"git -c core.fsmonitor=x status", "git --config-env=core.fsmonitor=X status", "HOME=. git status"},
		"git branch": {"git branch x", "git branch -u x", "git branch --edit-description"},
		"git tag":    {"git tag x"}, "git remote": {"git remote add x y"},
		"go env": {"go env -w X=y", "go env -u X"}, "go list": {"go list -export", "go list -toolexec=x", "GOFLAGS=-toolexec=x go list"},
		"npm version": {"npm version patch"}, "pnpm version": {"pnpm version patch"},
		"npm ls": {"NODE_OPTIONS='-r ./x' npm ls"}, "go doc": {"go doc -http"},
		"brew info": {"brew info ./x.rb", "brew info --github x"}, "brew deps": {"brew deps ./x.rb"},
		"brew uses": {"brew uses ./x.rb"}, "brew list": {"brew list ./x.rb"}, "brew search": {"brew search --debian x"},
	}
	// Families whose rows share an option.
	family := func(programs, subs, use string) {
		for _, p := range strings.Fields(programs) {
			for _, sub := range strings.Fields(subs) {
				g[p+" "+sub] = append(g[p+" "+sub], p+" "+sub+" "+use)
			}
		}
	}
	family("pip pip3", "list show freeze check help", "--log x")
	family("pip pip3", "list show freeze check help", "--python=./x")
	family("docker podman", "ps images inspect logs version info", "--host=ssh://x")
	family("apt apt-cache", "list show search policy depends rdepends", "-o x=y")
	family("systemctl", "status show list-units list-unit-files is-active is-enabled cat", "-H x")
	g["docker ps"] = append(g["docker ps"], "DOCKER_HOST=ssh://x docker ps")
	g["systemctl status"] = append(g["systemctl status"], "SYSTEMD_PAGER=./x systemctl status")
	return g
}

// lowRowsWithNothing are the low rows gone through with no option known
// to write a file or run a command (column -o is a separator, ps -o a
// format, grep -o only-matching, od/hexdump -o octal, strings -o an offset).
var lowRowsWithNothing = strings.Fields(`: [ cat tac head tail wc pwd echo true false test ls ll la dir
	grep egrep fgrep locate which whereis type stat du df diff cmp comm cut tr nl od hexdump strings fold fmt
	column paste join expand basename dirname realpath readlink cal whoami id groups uname uptime ps pgrep free
	vmstat lsof jq sleep seq yes cd pushd popd unset set shopt unalias jobs wait shift printenv md5sum sha1sum
	sha256sum shasum cksum help lsb_release sw_vers nproc getconf locale tput clear tty
	git cat-file git count-objects git describe git help git ls-files git ls-tree git merge-base git name-rev
	git rev-parse git version go help go version
	npm info npm list npm outdated npm view pnpm info pnpm list pnpm ls pnpm outdated pnpm view
	brew config brew doctor brew leaves brew outdated defaults read
	wisp approvals list wisp approvals pending wisp config get wisp config path wisp doctor wisp help
	wisp logs wisp policy wisp version`)

// Every low row of risk.txt is listed in lowRowGuards or
// lowRowsWithNothing, and every use lowRowGuards lists rates above low.
func TestLowRowsAreGuarded(t *testing.T) {
	table, err := parseRiskTable(riskText)
	if err != nil {
		t.Fatal(err)
	}
	nothing := lowRowsNamed(lowRowsWithNothing)
	var rows []string
	for program, entry := range table {
		for _, r := range entry.rows {
			if !r.modifies() && r.level == Low {
				rows = append(rows, strings.TrimSpace(program+" "+strings.Join(r.subs, " ")))
			}
		}
	}
	sort.Strings(rows)
	guards := lowRowGuards()
	for _, row := range rows {
		if _, ok := guards[row]; !ok && !nothing[row] {
			t.Errorf("risk.txt rates %q low, but lowRowGuards does not list what of it writes a file or runs a command (nor lowRowsWithNothing that nothing does)", row)
		}
	}
	for row, lines := range guards {
		if nothing[row] {
			t.Errorf("%q is in both lowRowGuards and lowRowsWithNothing", row)
		}
		if !slices.Contains(rows, row) {
			t.Errorf("lowRowGuards lists %q, which is no low row of risk.txt", row)
		}
		for _, line := range lines {
			if a, err := Assess(line); err != nil || a.Level == Low {
				t.Errorf("%s: %q rates %s %q (%v); it writes a file or runs a command", row, line, a.Level, a.Reasons, err)
			}
		}
	}
}

// lowRowsNamed reads the rows of lowRowsWithNothing: a program, and the
// subcommand words that follow it up to the next program.
func lowRowsNamed(fields []string) map[string]bool {
	multi := map[string]bool{"git": true, "go": true, "npm": true, "pnpm": true, "pip": true, "pip3": true, "docker": true,
		"podman": true, "apt": true, "apt-cache": true, "brew": true, "systemctl": true, "defaults": true, "wisp": true}
	out := map[string]bool{}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "wisp" && i+1 < len(fields) && (fields[i+1] == "approvals" || fields[i+1] == "config"):
			out[f+" "+fields[i+1]+" "+fields[i+2]] = true
			i += 2
		case multi[f] && i+1 < len(fields):
			out[f+" "+fields[i+1]] = true
			i++
		default:
			out[f] = true
		}
	}
	return out
}

// env -S's value is split as GNU env splits it.
func TestSplitEnvStringAsEnvDoes(t *testing.T) {
	env, err := exec.LookPath("env")
	if err != nil {
		t.Skip("no env on PATH")
	}
	if v, _ := exec.Command(env, "--version").Output(); !bytes.Contains(v, []byte("GNU coreutils")) {
		t.Skip("env is not GNU env, whose -S this test reads")
	}
	for _, value := range []string{
		`a\_b "c d" 'e f' x\cy z`, "a#b #c d", `a"b"c`, `'it\'s'`, `"\_"`, `a\tb`, `s\udo`, `"a\"b" \#x`,
		`rm -rf x`, `-i rm`, `a "b`, `\`,
	} {
		out, err := exec.Command(env, "-S", `printf <%s>\n `+value).Output()
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		got, ok := splitEnvString(value)
		switch {
		case err != nil && ok:
			t.Errorf("env -S %q fails (%v), but splitEnvString reads %q", value, err, got)
		case err == nil && !ok:
			t.Errorf("splitEnvString(%q) cannot read it; env -S reads %q", value, want)
		case err == nil && !slices.Equal(wrapAngles(got), want):
			t.Errorf("splitEnvString(%q) = %q; env -S reads %q", value, got, want)
		}
	}
	if got, ok := splitEnvString("a ${X} b"); ok {
		t.Errorf("splitEnvString reads ${X} as %q; what it is is only known when the line runs", got)
	}
}

func wrapAngles(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = "<" + f + ">"
	}
	return out
}

// The attacks are real: run as the person's shell would run them, each
// writes MARK or runs touch MARK, and none of them rates low.
func TestLowAttacksAreReal(t *testing.T) {
	for _, tt := range []struct{ line, needs string }{
		{"uniq IN MARK", "uniq"},
		{"sed -n '1e touch MARK' IN", "sed"},
		{"sed -n 'w MARK' IN", "sed"},
		{"git log --output=MARK", "git"},
		{"git -c core.fsmonitor='touch MARK' status", "git"},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch MARK' git status", "git"},
		{"env -vS'touch MARK'", "env"},
		{"xxd IN MARK", "xxd"},
		{"find -- MARKDIR -delete && test ! -e MARKDIR && touch MARK", "find"},
		{"command time -o MARK ls", "/usr/bin/time"},
	} {
		if _, err := exec.LookPath(tt.needs); err != nil {
			t.Logf("%s: no %s here, so not run", tt.line, tt.needs)
			continue
		}
		dir := t.TempDir()
		setupAttackDir(t, dir)
		cmd := exec.Command("/bin/sh", "-c", tt.line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, _ := cmd.CombinedOutput()
		if _, err := os.Stat(filepath.Join(dir, "MARK")); err != nil {
			t.Errorf("%s made no MARK (%s): the test's line is wrong", tt.line, out)
		}
		if a, err := Assess(tt.line); err != nil || a.Level == Low {
			t.Errorf("Assess(%q) = %s %q (%v); it writes a file or runs a command", tt.line, a.Level, a.Reasons, err)
		}
	}
}

// setupAttackDir makes a repository with one commit, a file IN, and a
// folder MARKDIR, in dir.
func setupAttackDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "IN"), []byte("a\na\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "MARKDIR"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	cmd := exec.Command("/bin/sh", "-c", "git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m x")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
}
