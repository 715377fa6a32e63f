package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// outsideTempHome is a home outside every temporary folder (which are
// writable roots, where NewSpec refuses a secret that exists): a scratch
// folder beside the package's source, removed after the test.
func outsideTempHome(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(".", ".secrets-test-")
	if err != nil {
		t.Skipf("no scratch folder outside the temporary folders: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		t.Fatal(err)
	}
	for _, tmp := range []string{"/tmp", "/var/tmp", "/dev/shm"} {
		if real == tmp || strings.HasPrefix(real, tmp+"/") {
			t.Skipf("the source lies in the temporary folder %s, a writable root", tmp)
		}
	}
	return real
}

func secretsOptions(home, proj string) sandbox.SpecOptions {
	return sandbox.SpecOptions{LaunchDir: proj, WispHome: filepath.Join(home, ".wisp"), UserHome: home,
		Getenv: envOf(map[string]string{"TMPDIR": "/nonexistent-tmp", "XDG_CACHE_HOME": "/nonexistent-cache"}), GOOS: "linux"}
}

// TestNewSpecDenyRead: the defaults always apply and configured entries
// add to them, ~ expanded, each as written and as its real path; allowRead
// takes back an entry whole, or is kept to be granted back inside one.
func TestNewSpecDenyRead(t *testing.T) {
	home := outsideTempHome(t)
	proj := filepath.Join(home, "src", "app")
	sandboxtest.Mkdirs(t, proj, filepath.Join(home, ".ssh"), filepath.Join(home, "vault-real"))
	if err := os.Symlink(filepath.Join(home, "vault-real"), filepath.Join(home, "vault")); err != nil {
		t.Fatal(err)
	}
	o := secretsOptions(home, proj)
	o.DenyRead = []string{"~/vault", "/opt/company-secrets"}
	o.AllowRead = []string{"~/.ssh/known_hosts", "~/.netrc"}
	spec, err := sandbox.NewSpec(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{home + "/.ssh", home + "/.aws", home + "/.config/gh", home + "/vault", home + "/vault-real", "/opt/company-secrets"} {
		if !slices.Contains(spec.DenyRead, want) {
			t.Errorf("DenyRead lacks %s: %q", want, spec.DenyRead)
		}
	}
	if slices.Contains(spec.DenyRead, home+"/.netrc") {
		t.Errorf("allowRead ~/.netrc did not take the default entry back")
	}
	if !slices.Equal(spec.AllowRead, []string{home + "/.ssh/known_hosts", home + "/.ssh/config"}) {
		t.Errorf("AllowRead = %q, want only the entry inside a secret and the default ssh config", spec.AllowRead)
	}
	if !spec.HidesRead(home+"/.ssh/id_ed25519") || spec.HidesRead(home+"/.ssh/known_hosts") || spec.HidesRead(home+"/notes") {
		t.Errorf("HidesRead does not follow the lists")
	}
	if slices.Contains(spec.DenyRead, home+"/Library/Keychains") {
		t.Errorf("macOS's entries in a Linux spec")
	}
}

// TestNewSpecSecretInRootRefused: a secret that exists inside a writable
// root is refused at load, saying why; one that does not exist yet there
// is listed as not covered.
func TestNewSpecSecretInRootRefused(t *testing.T) {
	home := outsideTempHome(t)
	sandboxtest.Mkdirs(t, filepath.Join(home, ".ssh"))
	_, err := sandbox.NewSpec(secretsOptions(home, home))
	var re *sandbox.ReadError
	if !errors.As(err, &re) || !errors.Is(err, sandbox.ErrSecretInRoot) {
		t.Fatalf("NewSpec with the home as the launch directory = %v, want a ReadError of ErrSecretInRoot", err)
	}
	for _, want := range []string{home + "/.ssh", "writable root " + home, "rename"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if re.Hint() == "" {
		t.Error("no hint")
	}
	if err := os.Remove(filepath.Join(home, ".ssh")); err != nil {
		t.Fatal(err)
	}
	spec, err := sandbox.NewSpec(secretsOptions(home, home))
	if err != nil {
		t.Fatalf("NewSpec with no secret in the root: %v", err)
	}
	if !slices.ContainsFunc(spec.Unreadable, func(u sandbox.Uncovered) bool { return u.Path == home+"/.ssh" }) {
		t.Errorf("a secret that could appear inside the root is not listed as uncovered: %v", spec.Unreadable)
	}
}

// TestNewSpecDenyReadRelativeRefused: an entry must be absolute or ~/….
func TestNewSpecDenyReadRelativeRefused(t *testing.T) {
	l := newLayout(t)
	for _, o := range []sandbox.SpecOptions{
		{LaunchDir: l.proj, WispHome: l.wisp, UserHome: l.home, DenyRead: []string{"secrets"}},
		{LaunchDir: l.proj, WispHome: l.wisp, UserHome: l.home, AllowRead: []string{"./known_hosts"}},
	} {
		if _, err := sandbox.NewSpec(o); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
			t.Errorf("NewSpec(%v, %v) = %v, want a refusal of the relative entry", o.DenyRead, o.AllowRead, err)
		}
	}
}

// TestEnvFilter: the default patterns drop secrets' names and wisp's own,
// keep the region and what else tools need; keep takes a name back, drop
// adds one that keep cannot take back; model.apiKeyEnv is dropped.
func TestEnvFilter(t *testing.T) {
	f := sandbox.DefaultEnvFilter("MY_MODEL_VAR", []string{"NPM_TOKEN"}, []string{"DATABASE_URL", "CORP_*", "NPM_TOKEN"})
	env := []string{"PATH=/bin", "HOME=/h", "OPENAI_API_KEY=k", "ANTHROPIC_API_KEY=k", "GITHUB_TOKEN=t", "GH_TOKEN=t",
		"AWS_SECRET_ACCESS_KEY=s", "AWS_SESSION_TOKEN=s", "AWS_REGION=eu", "AWS_DEFAULT_REGION=eu", "SSH_AUTH_SOCK=/s",
		"GPG_AGENT_INFO=x", "WISP_HOME=/w", "DB_PASSWORD=p", "my_secret=lower", "MY_MODEL_VAR=k", "DATABASE_URL=pg://",
		"CORP_THING=x", "NPM_TOKEN=n", "GOPATH=/g", "TERM=xterm", "KEYBOARD=us"}
	kept, dropped := f.Filter(env)
	wantKept := []string{"PATH=/bin", "HOME=/h", "AWS_REGION=eu", "AWS_DEFAULT_REGION=eu", "GOPATH=/g", "TERM=xterm", "KEYBOARD=us"}
	if !slices.Equal(kept, wantKept) {
		t.Errorf("kept %q\nwant %q", kept, wantKept)
	}
	for _, name := range dropped {
		if strings.Contains(name, "=") {
			t.Fatalf("a dropped entry carries a value: %q", name)
		}
	}
	if len(dropped) != len(env)-len(wantKept) {
		t.Errorf("dropped %q", dropped)
	}
	if kept, _ := (sandbox.EnvFilter{}).Filter(env); !slices.Equal(kept, env) {
		t.Errorf("the zero filter dropped something")
	}
}

// TestEnvPatterns: * is any run of characters, anywhere, and nothing else
// in a pattern is special; names match whatever their case.
func TestEnvPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"*_KEY", "OPENAI_API_KEY", true},
		{"*_KEY", "OPENAI_API_KEYS", false},
		{"*_KEY", "_KEY", true},
		{"*PASSWORD*", "db_password_file", true},
		{"AWS_*", "AWS_", true},
		{"AWS_*", "XAWS_REGION", false},
		{"A*B*C", "AxxBxxBxxC", true},
		{"A*B*C", "AxxBxxC_", false},
		{"**", "", true},
		{"", "", true},
		{"", "X", false},
		{"A?C", "ABC", false}, // ? is a character, not a wildcard
		{"A?C", "A?C", true},
		{"[AB]", "A", false}, // so is [
		{"[AB]", "[ab]", true},
		{`A\*`, `A\XYZ`, true}, // and \ escapes nothing
	} {
		if got := (sandbox.EnvFilter{Drop: []string{tc.pattern}}).Drops(tc.name); got != tc.want {
			t.Errorf("%q against %q: %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

// BenchmarkEnvFilter: the filter runs over wisp's whole environment before
// every confined command.
func BenchmarkEnvFilter(b *testing.B) {
	f := sandbox.DefaultEnvFilter("OPENAI_API_KEY", nil, nil)
	env := os.Environ()
	for len(env) < 40 {
		env = append(env, fmt.Sprintf("SOME_TOOL_SETTING_%d=x", len(env)))
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Filter(env)
	}
}
