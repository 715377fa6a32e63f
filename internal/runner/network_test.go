package runner_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/netproxy"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
)

// testNames resolves the test's names to 127.0.0.1 and no other name at
// all: no test reaches past this machine.
func testNames(known ...string) func(context.Context, string) ([]net.IP, error) {
	return func(_ context.Context, host string) ([]net.IP, error) {
		for _, k := range known {
			if host == k {
				return []net.IP{net.IPv4(127, 0, 0, 1)}, nil
			}
		}
		return nil, &net.DNSError{Err: "no such host (the test's resolver)", Name: host, IsNotFound: true}
	}
}

// scriptedHosts answers the proxy's questions: allowed for the hosts in
// allow, declined for the others, and remembers what it was asked.
type scriptedHosts struct {
	mu    sync.Mutex
	allow map[string]bool
	asked []netproxy.Question
}

func (s *scriptedHosts) AskHost(_ context.Context, q netproxy.Question) (netproxy.Answer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, q)
	return netproxy.Answer{Allowed: s.allow[q.Host], By: "test", Scope: "once"}, nil
}

// netFixture is a confined runner with the network through wisp's proxy:
// registry.test and example.com allowed, evil.test denied, every name on
// a server on 127.0.0.1.
type netFixture struct {
	*fixture
	origin, tlsOrigin *httptest.Server
	port, tlsPort     int
	hosts             *scriptedHosts
}

func newNetFixture(t *testing.T) *netFixture {
	t.Helper()
	needLinux(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("these tests need curl (.ci/run installs it)")
	}
	f := newFixture(t, true, func(c *config.Config) {
		c.CommandPolicy.Sandbox.AllowNetwork = false
		c.CommandPolicy.Sandbox.AllowedDomains = []string{"registry.test", "example.com", "git.test"}
		c.CommandPolicy.Sandbox.DeniedDomains = []string{"evil.test"}
	})
	n := &netFixture{fixture: f, hosts: &scriptedHosts{allow: map[string]bool{"asked.test": true}}}
	n.origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s%s\n", r.Host, r.URL.Path)
	}))
	n.tlsOrigin = httptest.NewTLSServer(n.origin.Config.Handler)
	t.Cleanup(n.origin.Close)
	t.Cleanup(n.tlsOrigin.Close)
	n.port, n.tlsPort = portOf(n.origin.URL), portOf(n.tlsOrigin.URL)
	f.r.Hosts = n.hosts
	if err := f.r.StartNetworkResolving(testNames("registry.test", "example.com", "evil.test", "asked.test", "declined.test", "git.test")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.r.Close)
	return n
}

func portOf(u string) int {
	_, p, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"))
	n, _ := strconv.Atoi(p)
	return n
}

func (n *netFixture) model(t *testing.T, line string) runner.Result {
	t.Helper()
	return n.run(t, runner.Request{Line: line, Origin: runner.Model})
}

func TestNetworkByDomainAllowedHostReachedWithCurl(t *testing.T) {
	n := newNetFixture(t)
	res := n.model(t, fmt.Sprintf("curl -sS --fail http://registry.test:%d/pkg", n.port))
	if res.ExitCode != 0 || !strings.Contains(res.Output, fmt.Sprintf("hello from registry.test:%d/pkg", n.port)) {
		t.Fatalf("curl to an allowed host: exit %d\n%s", res.ExitCode, res.Output)
	}
	if res.SandboxLine != "" {
		t.Errorf("sandbox line %q for an allowed host", res.SandboxLine)
	}
	d := n.decisions(t)
	if len(d) != 1 || d[0]["host"] != "registry.test" || d[0]["allowed"] != true || d[0]["by"] != "allowedDomains" || d[0]["commandId"] != res.OutputID {
		t.Errorf("network.decision events = %v, want one allowed by allowedDomains for command %s", d, res.OutputID)
	}
}

func TestNetworkByDomainTLSThroughConnect(t *testing.T) {
	n := newNetFixture(t)
	ca := filepath.Join(n.project, "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: n.tlsOrigin.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	// httptest's certificate is for example.com, which the test's resolver
	// puts on 127.0.0.1: curl checks it as it would any server's.
	res := n.model(t, fmt.Sprintf("curl -sS --fail --cacert %s https://example.com:%d/tls", ca, n.tlsPort))
	if res.ExitCode != 0 || !strings.Contains(res.Output, "hello from example.com") {
		t.Fatalf("curl https through CONNECT: exit %d\n%s", res.ExitCode, res.Output)
	}
}

func TestNetworkByDomainDeniedHostRefused(t *testing.T) {
	n := newNetFixture(t)
	res := n.model(t, fmt.Sprintf("curl -sS http://evil.test:%d/", n.port))
	host := fmt.Sprintf("evil.test:%d", n.port)
	if !strings.Contains(res.Output, "wisp: network to "+host+" refused: in deniedDomains") {
		t.Errorf("curl to a denied host printed:\n%s", res.Output)
	}
	if want := "sandbox: network to " + host + " was refused (in deniedDomains)"; res.SandboxLine != want {
		t.Errorf("sandbox line %q, want %q", res.SandboxLine, want)
	}
	res = n.model(t, fmt.Sprintf("curl -sS --fail --proxytunnel http://evil.test:%d/", n.port))
	if res.ExitCode == 0 || !strings.Contains(res.Output, "403") {
		t.Errorf("a CONNECT to a denied host: exit %d, want a 403:\n%s", res.ExitCode, res.Output)
	}
}

func TestNetworkByDomainUnlistedHostAsked(t *testing.T) {
	n := newNetFixture(t)
	res := n.model(t, fmt.Sprintf("curl -sS --fail http://asked.test:%d/ok", n.port))
	if res.ExitCode != 0 || !strings.Contains(res.Output, "hello from asked.test") {
		t.Fatalf("curl to an approved host: exit %d\n%s", res.ExitCode, res.Output)
	}
	res = n.model(t, fmt.Sprintf("curl -sS --fail http://declined.test:%d/no", n.port))
	host := fmt.Sprintf("declined.test:%d", n.port)
	if res.ExitCode == 0 || res.SandboxLine != "sandbox: network to "+host+" was refused (not in allowedDomains; the person declined)" {
		t.Errorf("curl to a declined host: exit %d, sandbox line %q\n%s", res.ExitCode, res.SandboxLine, res.Output)
	}
	if len(n.hosts.asked) != 2 || n.hosts.asked[0].Command != fmt.Sprintf("curl -sS --fail http://asked.test:%d/ok", n.port) {
		t.Errorf("questions = %+v, want one per host naming the command", n.hosts.asked)
	}
}

func TestNetworkByDomainDirectConnectRefused(t *testing.T) {
	n := newNetFixture(t)
	res := n.model(t, fmt.Sprintf("curl -sS --fail --noproxy '*' http://127.0.0.1:%d/direct", n.port))
	if res.ExitCode == 0 || strings.Contains(res.Output, "hello from") {
		t.Fatalf("a direct connect past the proxy reached the server:\n%s", res.Output)
	}
	control := exec.Command("curl", "-sS", "--fail", "--noproxy", "*", fmt.Sprintf("http://127.0.0.1:%d/direct", n.port))
	if out, err := control.CombinedOutput(); err != nil {
		t.Fatalf("control: unconfined, the direct connect fails too, so the case proves nothing: %v\n%s", err, out)
	}
}

func TestNetworkByDomainEnvironment(t *testing.T) {
	n := newNetFixture(t)
	n.r.Env = append(os.Environ(), "HTTPS_PROXY=http://corp.example:3128", "no_proxy=*")
	res := n.model(t, "env | grep -i _proxy= | sort")
	url := "http://" + n.r.ProxyAddr()
	for _, kv := range []string{"HTTP_PROXY=" + url, "HTTPS_PROXY=" + url, "ALL_PROXY=" + url, "http_proxy=" + url,
		"https_proxy=" + url, "all_proxy=" + url, "NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1"} {
		if !strings.Contains(res.Output, kv+"\n") {
			t.Errorf("the confined command's environment lacks %s:\n%s", kv, res.Output)
		}
	}
	if strings.Contains(res.Output, "corp.example") || strings.Contains(res.Output, "no_proxy=*") {
		t.Errorf("the person's own proxy variables reached the command:\n%s", res.Output)
	}
}

func TestNetworkByDomainGitOverHTTP(t *testing.T) {
	n := newNetFixture(t)
	repo := bareRepo(t)
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(repo))))
	t.Cleanup(srv.Close)
	res := n.model(t, fmt.Sprintf("git clone -q http://git.test:%d/%s clone && cat clone/README", portOf(srv.URL), filepath.Base(repo)))
	if res.ExitCode != 0 || !strings.Contains(res.Output, "served over http") {
		t.Fatalf("git clone over HTTP through the proxy: exit %d\n%s", res.ExitCode, res.Output)
	}
}

// bareRepo makes a bare repository with one commit, ready for git's dumb
// HTTP protocol (update-server-info), served by any file server.
func bareRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	work, bare := filepath.Join(dir, "work"), filepath.Join(dir, "srv", "repo.git")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", work)
	os.WriteFile(filepath.Join(work, "README"), []byte("served over http\n"), 0o644)
	git("-C", work, "add", "README")
	git("-C", work, "commit", "-qm", "one")
	git("clone", "-q", "--bare", work, bare)
	git("-C", bare, "update-server-info")
	return bare
}

func (n *netFixture) decisions(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	err := audit.Read(n.home, audit.Filter{Event: audit.EventNetworkDecision}, func(r audit.Record) error {
		out = append(out, r.Fields)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNetworkByDomainUnprivileged runs the network tests again as an
// unprivileged user, whose helper takes a user namespace (or none).
func TestNetworkByDomainUnprivileged(t *testing.T) {
	needLinux(t)
	testenv.NewRerun(t).Run(t, "^TestNetworkByDomain(AllowedHost|TLS|Denied|Unlisted|AskedOutOfBand|Direct|Environment|Git|SOCKS5)", nil,
		"TestNetworkByDomainAllowedHostReachedWithCurl", "TestNetworkByDomainTLSThroughConnect", "TestNetworkByDomainDeniedHostRefused",
		"TestNetworkByDomainUnlistedHostAsked", "TestNetworkByDomainAskedOutOfBand", "TestNetworkByDomainDirectConnectRefused", "TestNetworkByDomainEnvironment", "TestNetworkByDomainGitOverHTTP", "TestNetworkByDomainSOCKS5WithCurl")
}

// TestNetworkByDomainKeptAcrossANewSpec: a spec built afresh (a folder
// granted with add_directory replaces it with the network on, as the
// configuration's keys say) still confines commands to the proxy.
func TestNetworkByDomainKeptAcrossANewSpec(t *testing.T) {
	n := newNetFixture(t)
	fresh := n.r.Spec
	fresh.Network, fresh.Proxy = true, sandbox.NetworkProxy{}
	n.r.Spec = fresh
	res := n.model(t, fmt.Sprintf("curl -sS --fail --noproxy '*' http://127.0.0.1:%d/direct", n.port))
	if res.ExitCode == 0 {
		t.Fatalf("after the spec was replaced, a direct connect reached the server:\n%s", res.Output)
	}
	if res := n.model(t, fmt.Sprintf("curl -sS --fail http://registry.test:%d/", n.port)); res.ExitCode != 0 {
		t.Fatalf("after the spec was replaced, the proxy is out of reach: exit %d\n%s", res.ExitCode, res.Output)
	}
}

func TestNetworkByDomainLimitsText(t *testing.T) {
	n := newNetFixture(t)
	got := n.r.NetworkLimits()
	for _, want := range []string{"only through wisp's proxy", "registry.test, example.com, git.test", "never to evil.test", "asked of the person"} {
		if !strings.Contains(got, want) {
			t.Errorf("limits text %q lacks %q", got, want)
		}
	}
}

// TestNetworkByDomainSOCKS5WithCurl: the proxy's port speaks SOCKS5 too,
// for what is not HTTP (socks5h: the proxy resolves the name).
func TestNetworkByDomainSOCKS5WithCurl(t *testing.T) {
	n := newNetFixture(t)
	res := n.model(t, fmt.Sprintf("curl -sS --fail --proxy socks5h://%s http://registry.test:%d/socks && curl -sS --fail --proxy socks5h://%s http://evil.test:%d/",
		n.r.ProxyAddr(), n.port, n.r.ProxyAddr(), n.port))
	if !strings.Contains(res.Output, "hello from registry.test") {
		t.Fatalf("curl through SOCKS5 to an allowed host:\n%s", res.Output)
	}
	if res.ExitCode == 0 || res.SandboxLine != fmt.Sprintf("sandbox: network to evil.test:%d was refused (in deniedDomains)", n.port) {
		t.Errorf("curl through SOCKS5 to a denied host: exit %d, sandbox line %q\n%s", res.ExitCode, res.SandboxLine, res.Output)
	}
}
