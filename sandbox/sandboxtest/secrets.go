package sandboxtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// The secrets cases (issue 12): what commandPolicy.sandbox.denyRead holds
// cannot be read by a confined command, by any path to it, and the
// variables that hold secrets are not in its environment, nor in its
// helper's, which it may read through /proc.

// secretFiles are the default entries that are files; the others are
// folders, in which the case puts a file.
var secretFiles = []string{"~/.docker/config.json", "~/.netrc", "~/.git-credentials",
	"~/.terraform.d/credentials.tfrc.json", "~/.vault-token", "~/.npmrc", "~/.pypirc",
	"~/.gem/credentials", "~/.cargo/credentials.toml", "~/.cargo/credentials", "~/.pgpass", "~/.my.cnf"}

// secretValue is in every secret file and variable; no confined output
// may hold it.
const secretValue = "hunter2-secret-value-of-the-case"

// secretEnvName is a variable the default patterns drop.
const secretEnvName = "SANDBOXTEST_API_KEY"

// person is a made-up home full of secrets, with the spec that hides them.
type person struct {
	home  string
	spec  sandbox.Spec
	paths []string // one readable-unconfined file under each default entry
}

// newPerson makes the spec first and the secrets after it: NewSpec refuses
// a secret that exists inside a writable root, and the suite's scratch
// folder lies in the temporary folders, which are roots until the suite
// keeps only the project. It also shows that a secret made after the spec
// is hidden all the same.
func (s *suite) newPerson(name string, allowRead ...string) *person {
	s.t.Helper()
	p := &person{home: filepath.Join(filepath.Dir(s.proj), "person-"+name)}
	mustMkdir(s.t, p.home)
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{
		LaunchDir: s.proj, WispHome: s.away, UserHome: p.home, AllowNetwork: true,
		AllowRead: allowRead, Getenv: func(string) string { return "" },
	})
	if err != nil {
		s.t.Fatalf("NewSpec: %v", err)
	}
	spec.Roots, spec.Unreadable = spec.Roots[:1], nil
	p.spec = spec
	for _, entry := range sandbox.DefaultDenyRead(runtime.GOOS) {
		path := filepath.Join(p.home, strings.TrimPrefix(entry, "~/"))
		if !slices.Contains(secretFiles, entry) {
			mustMkdir(s.t, path)
			path = filepath.Join(path, "id_ed25519")
		}
		mustMkdir(s.t, filepath.Dir(path))
		mustWrite(s.t, path, secretValue+"\n")
		p.paths = append(p.paths, path)
	}
	mustWrite(s.t, filepath.Join(p.home, ".gitconfig"), "[user]\n\tname = Case Person\n")
	mustWrite(s.t, filepath.Join(p.home, "notes.txt"), "not a secret\n")
	if s.o.Credential != nil {
		chownTree(s.t, p.home, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	return p
}

// readsLine tries to read every path and prints READ for each it could.
func readsLine(paths []string) string {
	return fmt.Sprintf("for f in %s; do cat \"$f\" >/dev/null 2>&1 && echo \"READ $f\"; done; true",
		shellQuote(paths...))
}

// secretsRefused: every default secret is refused; unconfined, each reads.
func (s *suite) secretsRefused(t *testing.T) {
	s.t = t
	p := s.newPerson("refused")
	line := readsLine(p.paths)
	if out, _ := s.plain(line); strings.Count(out, "READ ") != len(p.paths) {
		t.Fatalf("control: unconfined, not every secret reads, so the case proves nothing:\n%s", out)
	}
	if out := s.mustSucceed(p.spec, line); strings.Contains(out, "READ ") {
		t.Errorf("confined commands read secrets:\n%s", out)
	}
	key := filepath.Join(p.home, ".ssh", "id_ed25519")
	s.control("cat " + shellQuote(key))
	out := s.mustFail(p.spec, "cat "+shellQuote(key))
	if !strings.Contains(out, deniedText()) || strings.Contains(out, secretValue) {
		t.Errorf("reading %s confined said %q, want %s and no secret", key, out, deniedText())
	}
}

// secretsAroundTheCorner tries the other ways to a secret: a link to it, a
// hard link, /proc/self/root, a relative path from inside its folder, a
// copy by another program, and a folder made after the spec.
func (s *suite) secretsAroundTheCorner(t *testing.T) {
	s.t = t
	p := s.newPerson("corner")
	key := shellQuote(filepath.Join(p.home, ".ssh", "id_ed25519"))
	ssh := shellQuote(filepath.Join(p.home, ".ssh"))
	late := filepath.Join(p.home, ".aws", "later", "credentials")
	mustMkdir(t, filepath.Dir(late))
	mustWrite(t, late, secretValue+"\n")
	if s.o.Credential != nil {
		chownTree(t, p.home, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	lines := []string{
		"ln -sf " + key + " link && cat link",
		"ln -f " + key + " hard 2>/dev/null; cat hard",
		"cd " + ssh + " && cat id_ed25519",
		"cd " + ssh + " && cat ./../.ssh/id_ed25519",
		"cp " + key + " copied; cat copied",
		"tar cf - " + ssh + " | tar xOf -",
		"cat " + shellQuote(late),
		"exec 3<" + key + " && cat <&3",
	}
	if runtime.GOOS == "linux" {
		lines = append(lines, "cat /proc/self/root"+key)
	}
	for _, line := range lines {
		// The control's links and copy go again before the confined run:
		// a hard link made outside the sandbox is the same file by another
		// path, which reads (docs/trust.md says so).
		if out, _ := s.plain(line + "; rm -f link hard copied"); !strings.Contains(out, secretValue) {
			t.Errorf("control: unconfined, %q does not read the secret, so the case proves nothing:\n%s", line, out)
		}
		if out, _ := s.confined(p.spec, line); strings.Contains(out, secretValue) {
			t.Errorf("confined %q read the secret:\n%s", line, out)
		}
	}
	if out, _ := s.plain("cat " + shellQuote(late)); !strings.Contains(out, secretValue) {
		t.Fatalf("control: unconfined, the late secret does not read: %s", out)
	}
}

// allowReadGivesOneBack: ~/.ssh/known_hosts in allowRead reads; the key
// beside it still does not, and neither does the folder's listing of it
// through a glob read.
func (s *suite) allowReadGivesOneBack(t *testing.T) {
	s.t = t
	p := s.newPerson("allowed", "~/.ssh/known_hosts")
	known := filepath.Join(p.home, ".ssh", "known_hosts")
	mustWrite(t, known, "github.com ssh-ed25519 AAAA\n")
	if s.o.Credential != nil {
		chownTree(t, p.home, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	if out := s.mustSucceed(p.spec, "cat "+shellQuote(known)); !strings.Contains(out, "github.com") {
		t.Errorf("allowRead's known_hosts read as %q", out)
	}
	s.mustFail(p.spec, "cat "+shellQuote(filepath.Join(p.home, ".ssh", "id_ed25519")))
}

// sshHostsReadByDefault: with no allowRead at all, ~/.ssh/known_hosts and
// ~/.ssh/config read (git over ssh checks the host with them) while the
// key beside them does not; an operator's denyRead of known_hosts hides it
// again.
func (s *suite) sshHostsReadByDefault(t *testing.T) {
	s.t = t
	// The operator's spec is made first, as newPerson makes its own: NewSpec
	// refuses a secret that exists inside the temporary folders' roots.
	home := filepath.Join(filepath.Dir(s.proj), "person-ssh")
	mustMkdir(t, home)
	denied, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: s.proj, WispHome: s.away, UserHome: home, AllowNetwork: true,
		DenyRead: []string{"~/.ssh/known_hosts"}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatalf("NewSpec: %v", err)
	}
	denied.Roots, denied.Unreadable = denied.Roots[:1], nil
	p := s.newPerson("ssh")
	known := filepath.Join(p.home, ".ssh", "known_hosts")
	config := filepath.Join(p.home, ".ssh", "config")
	mustWrite(t, known, "github.com ssh-ed25519 AAAA-known-host\n")
	mustWrite(t, config, "Host github.com\n  User git\n")
	if s.o.Credential != nil {
		chownTree(t, p.home, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	if out := s.mustSucceed(p.spec, "cat "+shellQuote(known, config)); !strings.Contains(out, "AAAA-known-host") || !strings.Contains(out, "User git") {
		t.Errorf("the default known_hosts and config read as %q", out)
	}
	key := filepath.Join(p.home, ".ssh", "id_ed25519")
	s.control("cat " + shellQuote(key))
	if out := s.mustFail(p.spec, "cat "+shellQuote(key)); strings.Contains(out, secretValue) {
		t.Errorf("the key beside known_hosts read: %q", out)
	}
	if out := s.mustFail(denied, "cat "+shellQuote(known)); strings.Contains(out, "AAAA-known-host") {
		t.Errorf("denyRead of known_hosts did not hide it again: %q", out)
	}
	if out := s.mustSucceed(denied, "cat "+shellQuote(config)); !strings.Contains(out, "User git") {
		t.Errorf("denyRead of known_hosts hid the config too: %q", out)
	}
}

// freshAccountBuilds: in a home that never ran go, the first go command
// that writes its build cache works confined, as does npm's first write
// of its cache: wisp made the standard caches before confining. It needs
// wisp to run as the person (the spec is made by this process): a root
// run that confines as another user leaves it to that user's run.
func (s *suite) freshAccountBuilds(t *testing.T) {
	s.t = t
	if s.o.Credential != nil {
		t.Skip("the spec is made as root here, not as the person: the person's own run covers it")
	}
	home := filepath.Join(filepath.Dir(s.proj), "fresh-home")
	mustMkdir(t, home)
	env := func(k string) string {
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: s.proj, WispHome: s.away, UserHome: home,
		AllowNetwork: true, Getenv: env})
	if err != nil {
		t.Fatalf("NewSpec: %v", err)
	}
	keep := spec.Roots[:1]
	for _, r := range spec.Roots {
		if within(r, home) {
			keep = append(keep, r)
		}
	}
	spec.Roots = keep
	h := shellQuote(home)
	// The lines set the fresh account's whole environment for its caches:
	// this run's XDG_CACHE_HOME (a CI machine's, or a person's) would send
	// go's cache to a folder the fresh account does not have.
	lines := []struct{ tool, line string }{
		{"go", "mkdir -p .fresh-tmp && TMPDIR=$PWD/.fresh-tmp GOTMPDIR= HOME=" + h + " XDG_CACHE_HOME= XDG_CONFIG_HOME= GOTOOLCHAIN=local GOFLAGS= GOCACHE= GOMODCACHE= GOPATH= go list -export -f '{{.Export}}' internal/goarch && mkdir -p " + h + "/go/pkg/mod/cache/download"},
		{"npm", "mkdir -p .fresh-tmp && TMPDIR=$PWD/.fresh-tmp HOME=" + h + " npm_config_cache= npm cache verify"},
	}
	for _, c := range lines {
		if _, err := exec.LookPath(c.tool); err != nil {
			t.Logf("%s is not installed here: left out", c.tool)
			continue
		}
		if out := s.mustSucceed(spec, c.line); c.tool == "go" && !strings.Contains(out, filepath.Join(home, ".cache", "go-build")) {
			t.Errorf("go's build went elsewhere than the fresh home's cache: %q", out)
		}
	}
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// toolsKeepWorking: with the secrets hidden, listing the home, git (which
// reads ~/.gitconfig) and reading the project work.
func (s *suite) toolsKeepWorking(t *testing.T) {
	s.t = t
	p := s.newPerson("tools")
	home := shellQuote(p.home)
	mustWrite(t, filepath.Join(s.proj, "README"), "the project\n")
	for _, c := range []struct{ line, want string }{
		{"ls -a " + home, "notes.txt"},
		{"cat " + home + "/notes.txt", "not a secret"},
		{"HOME=" + home + " git config --global user.name", "Case Person"},
		{"rm -rf gitcase && HOME=" + home + " git init -q gitcase && HOME=" + home + " git -C gitcase status --short && echo git-ok", "git-ok"},
		{"cat README", "the project"},
	} {
		if out := s.mustSucceed(p.spec, c.line); !strings.Contains(out, c.want) {
			t.Errorf("confined %q gave %q, want %q in it", c.line, out, c.want)
		}
	}
}

// buildToolsKeepWorking: with the default list over the real home (the
// test user's), go build, npm ci and python3 -m venv work in the project.
// The Go build cache stays a root, as NewSpec makes it, so that the build
// is not a cold one; npm's cache goes in the project. A tool that is not
// installed, or fails unconfined, is said and left out.
func (s *suite) buildToolsKeepWorking(t *testing.T) {
	s.t = t
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatalf("no home directory: %v", err)
	}
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: s.proj, WispHome: s.away, UserHome: home,
		AllowNetwork: true, Getenv: os.Getenv})
	if err != nil {
		t.Fatalf("NewSpec over the real home %s: %v", home, err)
	}
	keep := spec.Roots[:1]
	for _, r := range spec.Roots {
		if strings.HasSuffix(r, "go-build") || strings.HasSuffix(r, filepath.Join("pkg", "mod")) {
			keep = append(keep, r)
		}
	}
	spec.Roots = keep
	mustMkdir(t, filepath.Join(s.proj, "tools", "gomod"))
	mustWrite(t, filepath.Join(s.proj, "tools", "gomod", "go.mod"), "module example.com/hello\n\ngo 1.21\n")
	mustWrite(t, filepath.Join(s.proj, "tools", "gomod", "main.go"), "package main\n\nfunc main() { println(\"built\") }\n")
	mustMkdir(t, filepath.Join(s.proj, "tools", "npm"))
	mustWrite(t, filepath.Join(s.proj, "tools", "npm", "package.json"), `{"name":"x","version":"1.0.0"}`)
	mustWrite(t, filepath.Join(s.proj, "tools", "npm", "package-lock.json"),
		`{"name":"x","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"x","version":"1.0.0"}}}`)
	if s.o.Credential != nil {
		chownTree(t, filepath.Join(s.proj, "tools"), int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	for _, c := range []struct{ tool, line string }{
		{"go", "cd tools/gomod && mkdir -p .gotmp && GOTMPDIR=$PWD/.gotmp GOFLAGS=-mod=mod GOTOOLCHAIN=local go build -buildvcs=false -o hello . && ./hello"},
		{"npm", "cd tools/npm && npm_config_cache=$PWD/.npm npm ci --no-audit --no-fund --offline"},
		{"python3", "rm -rf tools/venv && python3 -m venv --without-pip tools/venv && tools/venv/bin/python -c 'print(1)'"},
	} {
		if _, err := exec.LookPath(c.tool); err != nil {
			t.Logf("%s is not installed here: left out", c.tool)
			continue
		}
		if !s.worksUnconfined("build tool "+c.tool, c.line) {
			t.Logf("%s fails here even unconfined: left out", c.tool)
			continue
		}
		s.mustSucceed(spec, c.line)
	}
}

// environmentFiltered: a dropped variable is not in the command's
// environment, nor in any environ it can read under /proc (its helper's,
// served or not), while the test's own process, whose environ holds it,
// is out of reach; unconfined, the same reads find it. macOS has no /proc:
// there the command's own environment is checked, and another process's,
// which sysctl gives to a process of the same user whatever the profile
// says, is a gap docs/trust.md names.
func (s *suite) environmentFiltered(t *testing.T) {
	s.t = t
	secretInEnvironment()
	env := os.Environ()
	p := s.newPerson("env")
	if !p.spec.Env.Drops(secretEnvName) {
		t.Fatalf("the default filter keeps %s", secretEnvName)
	}
	if runtime.GOOS != "linux" {
		out := s.confinedEnv(p.spec, "env", env)
		if strings.Contains(out, secretValue) || strings.Contains(out, secretEnvName) || !strings.Contains(out, "PATH=") {
			t.Errorf("a confined command's environment holds the dropped variable, or lost PATH:\n%.400s", out)
		}
		return
	}
	self := fmt.Sprintf("/proc/%d/environ", s.startHolder(t))
	all := "env; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\"; done 2>/dev/null; true"
	if out, _ := s.plain("tr '\\0' '\\n' < " + self); !strings.Contains(out, secretValue) {
		t.Fatalf("control: unconfined, %s does not show the variable:\n%s", self, out)
	}
	out := s.confinedEnv(p.spec, all, env)
	if strings.Contains(out, secretValue) || strings.Contains(out, secretEnvName) {
		t.Errorf("a confined command saw the dropped variable:\n%s", grepLines(out, secretValue))
	}
	if !strings.Contains(out, "PATH=") {
		t.Errorf("a confined command's environment lost PATH:\n%.400s", out)
	}
	if out, code := s.confined(p.spec, "cat "+self+" >/dev/null"); code == 0 {
		t.Errorf("a confined command read wisp's own environ (%s):\n%s", self, out)
	}
}

// secretInEnvironment puts the secret in the test's own environment, as
// wisp's would hold it, so that a served helper started from it has it to
// drop. Once, and never taken out: os.Setenv rather than t.Setenv, which a
// test that runs in parallel may not call, and every mode wants it there.
var secretInEnvironment = sync.OnceFunc(func() { os.Setenv(secretEnvName, secretValue) })

// startHolder starts a process outside the sandbox, as wisp is, whose
// environ holds the secret (os.Setenv does not change the test's own
// /proc/self/environ), and returns its pid; it ends with the test.
func (s *suite) startHolder(t *testing.T) int {
	cmd := exec.Command("/bin/sh", "-c", "read x")
	cmd.Env = append(os.Environ(), secretEnvName+"="+secretValue)
	if s.o.Credential != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.o.Credential}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the process that holds the secret: %v", err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	return cmd.Process.Pid
}

func grepLines(out, word string) string {
	var hits []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, word) {
			hits = append(hits, l)
		}
	}
	return strings.Join(hits, "\n")
}

// confinedEnv runs line confined as the runner does, with env filtered by
// the spec: the helper's own environment is then the filtered one too.
func (s *suite) confinedEnv(spec sandbox.Spec, line string, env []string) string {
	s.t.Helper()
	env = spec.CommandEnv(env)
	if s.o.Serve {
		return s.servedEnvRun(spec, line, env)
	}
	argv, attr, err := s.command(spec, line)
	if err != nil {
		s.t.Fatalf("Command(%q): %v", line, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.SysProcAttr = s.proj, env, attr
	if s.o.Credential != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.o.Credential}
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		s.t.Fatalf("run %v: %v", argv, err)
	}
	return string(out)
}

func (s *suite) servedEnvRun(spec sandbox.Spec, line string, env []string) string {
	s.t.Helper()
	out, _ := s.servedRunEnv(spec, line, env)
	return out
}

// runSecrets runs the secrets cases; Run calls it.
func runSecrets(t *testing.T, s *suite) {
	t.Run("SecretsRefused", s.secretsRefused)
	t.Run("SecretsRefusedAroundTheCorner", s.secretsAroundTheCorner)
	t.Run("AllowReadGivesOneBack", s.allowReadGivesOneBack)
	t.Run("SSHHostsReadByDefault", s.sshHostsReadByDefault)
	s.run(t, "FreshAccountBuilds", s.freshAccountBuilds)
	t.Run("ToolsKeepWorkingBesideSecrets", s.toolsKeepWorking)
	s.run(t, "BuildToolsKeepWorkingWithTheRealHome", s.buildToolsKeepWorking)
	t.Run("EnvironmentWithoutSecrets", s.environmentFiltered)
}

// deniedText is how the system's tools word the sandbox's refusal of a
// read: Landlock's EACCES, Seatbelt's EPERM.
func deniedText() string {
	if runtime.GOOS == "darwin" {
		return "Operation not permitted"
	}
	return "Permission denied"
}
