package policy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sedAttacks run touch MARK or write MARK, each as GNU sed reads them.
var sedAttacks = []string{
	"1e touch MARK", "$e touch MARK", "1 e touch MARK", "1!e touch MARK", "0~1e touch MARK",
	"1,$ e touch MARK", "1,+1 e touch MARK", `\,x, e touch MARK`, "/x/I e touch MARK",
	"y/a/b/;e touch MARK", ":a;e touch MARK", "b end;:end\ne touch MARK", "1{\ne touch MARK\n}",
	"#c\n1e touch MARK", "s/x/y/;1e touch MARK", "s/x/y/3;e touch MARK",
	"s/.*/touch MARK/e", "s|.*|touch MARK|e", "s/.*/touch MARK/ e", "s/.*[/]/touch MARK/e",
	"s/x/y/w MARK", "s/x/y/gw MARK", "w MARK", "/x/W MARK", "2q;w MARK",
}

// sedHarmless write nothing and run nothing.
var sedHarmless = []string{
	"1p", "1,5p", "s/a/b/g", "/error/p", "/^#/d;s/ *$//", "$=", `s/[0-9]\+/N/g`, "y/abc/xyz/",
	"1i header", `$a\`, "/start/,/end/{/x/p}", "s/hello/world/", "l", "s/a/b/I", "1~3d", "2{p;q}",
	"s#/usr#/opt#g", "1!G;h;$!d", "=", "s/[[:space:]]*$//", "b end; :end", `:a;N;$!ba;s/\n/ /g`,
	"n;d", "s/x/&&/", `s/\(a\)\(b\)/\2\1/`, "/x/!d", "0,/x/s//X/", "s/e/w/", "/w/p;/e/p",
}

// The scripts sedScriptRisk says write or run are ones GNU sed runs so:
// run for real, each makes MARK (and with --sandbox sed refuses it); the
// harmless ones pass --sandbox, make nothing, and are read as harmless.
func TestSedScriptsAsSedReadsThem(t *testing.T) {
	sed, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("no sed on PATH")
	}
	if v, _ := exec.Command(sed, "--version").Output(); !bytes.Contains(v, []byte("GNU sed")) {
		t.Skip("sed is not GNU sed, whose --sandbox this test reads")
	}
	for _, script := range sedAttacks {
		dir := t.TempDir()
		runSed(t, sed, dir, script, false)
		if _, err := os.Stat(filepath.Join(dir, "MARK")); err != nil {
			t.Errorf("sed %q made no MARK: the test's script is wrong", script)
		}
		if out, err := runSed(t, sed, dir, script, true); err == nil || !bytes.Contains(out, []byte("disabled in sandbox mode")) {
			t.Errorf("sed --sandbox %q: %s %v; want it refused", script, out, err)
		}
		if r := sedScriptRisk(script); r != sedRuns && r != sedWrites {
			t.Errorf("sedScriptRisk(%q) = %q; want that it runs or writes", script, r)
		}
	}
	for _, script := range sedHarmless {
		dir := t.TempDir()
		if out, err := runSed(t, sed, dir, script, true); err != nil {
			t.Errorf("sed --sandbox %q: %s %v; want it accepted", script, out, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "MARK")); err == nil {
			t.Errorf("sed %q made MARK", script)
		}
		if r := sedScriptRisk(script); r != "" {
			t.Errorf("sedScriptRisk(%q) = %q; want nothing", script, r)
		}
	}
}

func runSed(t *testing.T, sed, dir, script string, sandbox bool) ([]byte, error) {
	t.Helper()
	input := filepath.Join(dir, "in")
	if err := os.WriteFile(input, []byte("x/\nx/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"-n", "-e", script, input}
	if sandbox {
		args = append([]string{"--sandbox"}, args...)
	}
	cmd := exec.Command(sed, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// FuzzSedScript: a script sedScriptRisk reads as harmless, and in which
// it saw no r or R (which --sandbox refuses too), is one GNU sed --sandbox
// accepts: sed itself finds no e, w or W in it.
func FuzzSedScript(f *testing.F) {
	for _, s := range append(append([]string{}, sedAttacks...), sedHarmless...) {
		f.Add(s)
	}
	f.Add("s/[]/]/x/")
	f.Add("1a\\\ne touch MARK")
	sed, err := exec.LookPath("sed")
	if err != nil {
		f.Skip("no sed on PATH")
	}
	if v, _ := exec.Command(sed, "--version").Output(); !bytes.Contains(v, []byte("GNU sed")) {
		f.Skip("sed is not GNU sed, whose --sandbox this test reads")
	}
	f.Fuzz(func(t *testing.T, script string) {
		if strings.ContainsRune(script, 0) || strings.HasPrefix(script, "-") {
			return // not one argument sed reads as a script
		}
		p, q := &sedParser{s: script, brackets: true}, &sedParser{s: script}
		if p.risk() != "" || q.risk() != "" || p.reads || q.reads {
			return
		}
		out, _ := exec.Command(sed, "--sandbox", "-n", "-e", script, os.DevNull).CombinedOutput()
		if bytes.Contains(out, []byte("disabled in sandbox mode")) {
			t.Fatalf("sedScriptRisk(%q) finds nothing, but GNU sed reads an e or w command: %s", script, out)
		}
	})
}
