//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/testenv"
	itty "github.com/wisp-sh/wisp/internal/tty"
)

// firstHourTreeEnv names the install tree root prepared for the hour as
// the unprivileged user, who cannot reach root's Go build cache to build
// the binaries.
const firstHourTreeEnv = "WISP_TEST_FIRST_HOUR_TREE"

// A newcomer's first hour (issue 28), typed into one shell on one real
// pseudo-terminal and read back through a terminal emulator, in a fresh
// home holding ~/.ssh: make install PREFIX=~/.local and the line it says
// to add to ~/.profile; a bare wisp in the home folder, refused; a bare
// wisp in a project, a chat; a wrong model.baseURL, blamed on the value
// with the fix; a config.json broken by hand, said where once; a chat turn
// against a recorded Ollama answer and a ! line; chat --resume and tui
// --resume showing the conversation so far; wisp threads; wisp piped,
// the usage; make uninstall. As root, then as the unprivileged user.
func TestNewcomersFirstHour(t *testing.T) {
	needSandbox(t)
	tree := firstHourTree(t)
	uid, gid := os.Geteuid(), os.Getegid()
	home := personalDir(t, uid, gid)
	project := newcomersProject(t, home)
	srv, model := recordedOllama(t, tree, "ollama/text-plain")
	sh := startShell(t, tree, home)

	// Each step's assertions read the screen from the line its command
	// was typed on: what the person sees of that step.
	step := func(name string, f func(t *testing.T)) {
		if !t.Run(name, func(t *testing.T) { sh.t = t; f(t) }) {
			t.FailNow() // the steps after stand on this one
		}
	}
	bin := filepath.Join(home, ".local", "bin")

	step("make install says how to reach wisp", func(t *testing.T) {
		at := sh.typeLine("make install PREFIX=~/.local")
		sh.waitSince(at, "Run it by its path now:  "+bin+"/wisp chat")
		intro := "To find it by name, add this line to ~/.profile:"
		sh.waitSince(at, "then log in again, or run  . ~/.profile  in this shell.")
		line := sh.lineAfter(at, intro)
		if !strings.HasPrefix(line, "export PATH=") {
			t.Fatalf("the line to add to ~/.profile is %q", line)
		}
		at = sh.typeLine("echo '" + line + "' >> ~/.profile && . ~/.profile && command -v wisp")
		sh.waitSince(at, "\n"+bin+"/wisp\n")
	})

	step("wisp in the home folder is refused in one sentence", func(t *testing.T) {
		sh.typeLine("cd")
		at := sh.typeLine("wisp")
		sh.waitSince(at, "wisp: error: sandbox: wisp will not start in "+home+": it holds the secret "+home+"/.ssh, and in the writable root "+
			home+" a command could rename it and read it; start wisp in a project folder instead")
		sh.waitSince(at, "wisp: hint: cd into a project folder and start wisp there (wisp mcp takes --dir PROJECT); if commands may read "+
			home+"/.ssh, list it in commandPolicy.sandbox.allowRead")
		sh.prompt(at)
		if seen := sh.since(at); strings.Count(seen, "wisp: error:") != 1 || strings.Contains(seen, "denyRead") {
			t.Errorf("the refusal is not one sentence naming only what the person has:\n%s", seen)
		}
	})

	step("a bare wisp in a project starts a chat", func(t *testing.T) {
		sh.typeLine("cd project")
		at := sh.typeLine("wisp")
		sh.waitSince(at, "wisp chat · granite4.1:8b · "+project+"\n")
		sh.waitSince(at, "· the model cannot be reached: the model server at http://127.0.0.1:11434/v1 is not answering; start it (ollama serve) or set model.baseURL")
		sh.chatReady(at)
		// The note, wrapped to the width, reads on from the start of each line.
		for _, l := range strings.Split(sh.since(at), "\n") {
			if strings.HasPrefix(l, " ") {
				t.Errorf("a line of the chat's start begins far from the left: %q\n%s", l, sh.since(at))
			}
		}
		sh.send("\x04") // Ctrl-D leaves
		sh.prompt(at)
	})

	port := strings.TrimPrefix(strings.TrimSuffix(srv.URL(), "/v1"), "http://127.0.0.1:")
	step("a wrong model.baseURL is blamed on the value, with the fix", func(t *testing.T) {
		at := sh.typeLine("wisp config set model.baseURL 127.0.0.1:" + port)
		fix := "wisp config set model.baseURL " + srv.URL()
		sh.waitSince(at, `wisp: error: model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1, not "127.0.0.1:`+port+`"; for that server: `+fix)
		if seen := sh.since(at); strings.Contains(seen, "config.json") || strings.Contains(seen, "by hand") {
			t.Errorf("the bad value is blamed on the file:\n%s", seen)
		}
		sh.prompt(at)
		at = sh.typeLine(fix + " && wisp config set model.name " + model)
		sh.waitSince(at, "model.name = ")
		sh.prompt(at)
	})

	step("a config.json broken by hand is said where, once: the line that lacks the comma", func(t *testing.T) {
		config := filepath.Join(home, ".wisp", "config.json")
		good, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		// A key added by hand without the comma after it.
		at := sh.typeLine(`sed -i '1a\  "limits": {"commandTimeoutSeconds": 300}' ~/.wisp/config.json && wisp`)
		sh.waitSince(at, "wisp: error: "+config+" is invalid: not valid JSON at line 2, column 43: a comma (or a }) is missing at the end of the line, "+
			"in the line `\"limits\": {\"commandTimeoutSeconds\": 300}`")
		sh.prompt(at)
		if seen := sh.since(at); strings.Count(seen, "not valid JSON") != 1 {
			t.Errorf("the broken config is not said once:\n%s", seen)
		}
		at = sh.typeLine(`sed -i '2s/}$/},/' ~/.wisp/config.json && wisp config get limits.commandTimeoutSeconds`)
		sh.waitSince(at, "\n300\n")
		sh.prompt(at)
		if fixed, _ := os.ReadFile(config); !strings.Contains(string(fixed), srv.URL()) {
			t.Errorf("the person's settings were lost: before\n%s\nafter\n%s", good, fixed)
		}
	})

	step("a chat turn and a ! line", func(t *testing.T) {
		at := sh.typeLine("wisp")
		sh.chatReady(at)
		sh.typeMessage(at, "what files are here?")
		sh.waitSince(at, "There are three files: go.mod, main.go and README.md.")
		sh.chatReady(at)
		sh.typeMessage(at, "!ls")
		sh.waitSince(at, "› !ls\nREADME.md  go.mod  main.go\n")
		sh.chatReady(at) // a key typed while a command runs is not the chat's
		sh.send("\x04")
		sh.prompt(at)
		if n := len(srv.Requests()); n == 0 {
			t.Error("the chat never asked the model server")
		}
	})

	resumed := "── the conversation so far; it resumes here ──"
	step("chat --resume shows the conversation so far", func(t *testing.T) {
		at := sh.typeLine("wisp chat --resume")
		sh.waitSince(at, resumed)
		seen := sh.since(at)
		for _, want := range []string{"› what files are here?", "There are three files: go.mod, main.go and README.md.", "! ls"} {
			if i := strings.Index(seen, want); i < 0 || i > strings.Index(seen, resumed) {
				t.Errorf("the resumed chat does not show %q above the marker:\n%s", want, seen)
			}
		}
		sh.chatReady(at)
		sh.send("\x04")
		sh.prompt(at)
	})

	step("tui --resume shows the conversation so far", func(t *testing.T) {
		at := sh.typeLine("wisp tui --resume")
		sh.waitFor("sandbox: Landlock ABI")
		// In the order they happened, the marker under them.
		shown, last := sh.waitShown(resumed), -1
		for _, want := range []string{"› what files are here?", "There are three files: go.mod, main.go and README.md.", "! ls", resumed} {
			i := strings.Index(shown, want)
			if i <= last {
				t.Errorf("the resumed tui does not show %q below what came before it:\n%s", want, shown)
			}
			last = i
		}
		sh.send("\x04")
		sh.prompt(at)
	})

	step("wisp threads lists the conversation", func(t *testing.T) {
		at := sh.typeLine("wisp threads")
		sh.prompt(at)
		if !strings.Contains(sh.since(at), "  "+project+"  what files are here?\n") {
			t.Errorf("wisp threads does not list the conversation in %s:\n%s", project, sh.since(at))
		}
	})

	step("wisp piped prints the usage", func(t *testing.T) {
		at := sh.typeLine("wisp | cat")
		sh.waitSince(at, "Usage:")
		sh.prompt(at)
		if seen := sh.since(at); strings.Contains(seen, "wisp chat · ") {
			t.Errorf("a piped wisp started a chat:\n%s", seen)
		}
	})

	step("make uninstall says what it removed and what it kept", func(t *testing.T) {
		at := sh.typeLine("cd " + tree + " && make uninstall PREFIX=~/.local; hash -r; command -v wisp || echo no wisp")
		for _, want := range []string{"removed " + bin + "/wisp\n", "removed what make install wrote for " + home + "/.local\n",
			"kept " + home + "/.wisp (your configuration, conversations, approvals and audit log): to remove it too, rm -rf " + home + "/.wisp",
			"no wisp\n"} {
			sh.waitSince(at, want)
		}
	})

	if os.Geteuid() == 0 {
		t.Run("the same hour as a person, not root", func(t *testing.T) {
			r := testenv.NewRerun(t)
			r.Run(t, "^TestNewcomersFirstHour$", []string{firstHourTreeEnv + "=" + tree}, "TestNewcomersFirstHour")
		})
	}
}

// firstHourTree is a folder as the person's clone of wisp looks after
// make build: the Makefile, the install script and what it installs, and
// bin/ with wisp, wisp-agent and wisp-sandbox built as make builds them
// (wisp-bar, which the hour does not use, is left out, and so is
// everything make install does not read), and the recorded model answer
// the hour's chat gets. Root builds it, 0755, for both runs.
func firstHourTree(t *testing.T) string {
	t.Helper()
	if tree := os.Getenv(firstHourTreeEnv); tree != "" {
		return tree
	}
	tree, err := os.MkdirTemp("", "wisp-first-hour-tree-")
	if err == nil {
		err = os.Chmod(tree, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	root := filepath.Join("..", "..")
	for _, f := range []string{"Makefile", "scripts/install.sh", "packaging/linux/apparmor.sh", "packaging/linux/apparmor.d/wisp", "packaging/linux/wisp-bar.desktop",
		replayCorpus + "ollama/text-plain.txt"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err == nil {
			err = os.MkdirAll(filepath.Dir(filepath.Join(tree, f)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(tree, f), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command(goTool(t), "build", "-trimpath", "-o", filepath.Join(tree, "bin")+"/", "./cmd/wisp", "./cmd/wisp-agent", "./cmd/wisp-sandbox")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build wisp as make build does: %v\n%s", err, out)
	}
	t.Logf("built wisp, wisp-agent and wisp-sandbox in %s", time.Since(start).Round(time.Second))
	return tree
}

func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build wisp with: %v", err)
	}
	return p
}

// newcomersProject makes the person's ~/.ssh and a project beside it
// with the three files the recorded answer names.
func newcomersProject(t *testing.T, home string) string {
	t.Helper()
	project := filepath.Join(home, "project")
	for _, dir := range []string{filepath.Join(home, ".ssh"), project} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{".ssh/id_ed25519": "not a real key\n", "project/go.mod": "module example.com/hello\n",
		"project/main.go": "package main\n\nfunc main() {}\n", "project/README.md": "# hello\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// replayCorpus is where the recorded model servers' answers are, in the
// source and in the tree.
const replayCorpus = "internal/model/modeltest/testdata/replay/"

// recordedOllama replays a recorded case of the corpus in tree and returns
// the server and the model name the case answers for.
func recordedOllama(t *testing.T, tree, name string) (*modeltest.ReplayServer, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(tree, replayCorpus+name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := modeltest.ParseCase(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return modeltest.NewReplayServer(t, c), c.Get("model")
}

// hourShell is the person's shell, bash, on a pseudo-terminal of its
// own, read back through a terminal emulator.
type hourShell struct {
	*ptyTUI
}

const (
	hourPrompt     = "newcomer$ "
	hourRows       = 50
	hourCols       = 160
	hourSystemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
)

// startShell starts bash in tree for a person whose home is home: a login's
// PATH (the system's folders and Go's, as the README's first line needs),
// no WISP_HOME, and make as the person types it but for the build, done
// already (-o build: the account cannot reach root's Go build cache).
func startShell(t *testing.T, tree, home string) *hourShell {
	t.Helper()
	rc := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(rc, []byte("PS1='"+hourPrompt+"'\nmake() { command make -o build --no-print-directory \"$@\"; }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--rcfile", rc, "-i")
	cmd.Dir = tree
	var env []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "HOME", "PATH", "WISP_HOME", "NO_COLOR", "TERM", "XDG_CONFIG_HOME", "PS1":
		default:
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOME="+home, "PATH="+hourSystemPath+":"+filepath.Dir(goTool(t)), "TERM=xterm-256color")
	c := onPTY(t, cmd, hourRows, hourCols)
	sh := &hourShell{c}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("WISP_TEST_SHOW_HOUR") != "" {
			t.Logf("the whole hour on the screen:\n%s", c.screen().Text())
		}
	})
	sh.prompt(-1)
	return sh
}

// typeLine waits for the prompt, types line and Enter, and returns the
// screen line it was typed on.
func (sh *hourShell) typeLine(line string) int {
	sh.t.Helper()
	at := len(sh.screen().Lines()) - 1
	sh.send(line + "\r")
	sh.waitSince(at, hourPrompt+line)
	return at
}

// since is the screen from line at on, joined.
func (sh *hourShell) since(at int) string {
	lines := sh.screen().Lines()
	if at > len(lines) {
		return ""
	}
	return strings.Join(lines[at:], "\n") + "\n"
}

// showsSince reports whether s shows from line at on, on one line or
// wrapped over several (where a wrap at a space leaves the space at the
// end of a line, which the emulator's lines trim).
func (sh *hourShell) showsSince(at int, s string) bool {
	seen := sh.since(at)
	return strings.Contains(seen, s) || strings.Contains(strings.ReplaceAll(seen, "\n", ""), s) ||
		strings.Contains(strings.ReplaceAll(seen, "\n", " "), s)
}

// waitSince waits until s shows on the screen from line at on. The wait
// guards against a hang; it is not a timed assertion.
func (sh *hourShell) waitSince(at int, s string) {
	sh.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if sh.showsSince(at, s) {
			return
		}
	}
	sh.t.Fatalf("never saw %q; the screen from the step's command on:\n%s", s, sh.since(at))
}

// typeMessage types s into wisp chat, and Enter once wisp has read and
// drawn it, as a person types: an Enter read together with other keys is
// a paste's newline, not a typed Enter.
func (sh *hourShell) typeMessage(at int, s string) {
	sh.t.Helper()
	sh.send(s)
	sh.waitSince(at, "› "+s)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if n, err := itty.Queued(sh.slave); err == nil && n == 0 {
			sh.send("\r")
			return
		}
	}
	sh.t.Fatalf("wisp never read %q", s)
}

// chatReady waits until wisp chat prompts for a message below line at.
func (sh *hourShell) chatReady(at int) {
	sh.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		lines := sh.screen().Lines()
		if last := len(lines) - 1; last > at && lines[last] == "›" {
			return
		}
	}
	sh.t.Fatalf("wisp chat never prompted for a message; the screen from the step's command on:\n%s", sh.since(at))
}

// prompt waits until the shell prompts again below line at (-1: anywhere):
// the command typed there has ended.
func (sh *hourShell) prompt(at int) {
	sh.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		lines := sh.screen().Lines()
		if last := len(lines) - 1; last > at && lines[last] == strings.TrimSpace(hourPrompt) {
			return
		}
	}
	sh.t.Fatalf("the shell never prompted again; the screen from the step's command on:\n%s", sh.since(at))
}

// waitShown waits until s shows on the full screen a program such as
// the tui draws, whose last line is its status line: the last rows of the
// emulator's lines, not the scrollback above them. It returns that screen.
func (sh *hourShell) waitShown(s string) string {
	sh.t.Helper()
	shown := func() string {
		lines := sh.screen().Lines()
		return strings.Join(lines[max(0, len(lines)-hourRows):], "\n")
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if screen := shown(); strings.Contains(screen, s) {
			return screen
		}
	}
	sh.t.Fatalf("never saw %q on the screen:\n%s", s, shown())
	return ""
}

// lineAfter is the screen line after the one holding intro, trimmed.
func (sh *hourShell) lineAfter(at int, intro string) string {
	sh.t.Helper()
	lines := strings.Split(sh.since(at), "\n")
	for i, l := range lines {
		if strings.Contains(l, intro) && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
	}
	sh.t.Fatalf("no line %q on the screen:\n%s", intro, sh.since(at))
	return ""
}
