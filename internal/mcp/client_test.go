package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// The end-to-end tests drive a real `wisp mcp`, built from cmd/wisp, with
// the TypeScript SDK's client (testdata/client.mjs), which this project
// did not write. CI installs it with `npm ci --prefix mcp/testdata`.

// builtVersion is stamped into the wisp under test, so the server's
// version is seen to be the binary's own.
const builtVersion = "0.0.0-mcp-test"

var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// wispBinary builds cmd/wisp once for the package's tests (go test puts
// its own go first on PATH).
func wispBinary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "wisp-mcp-bin-")
		if build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "wisp")
		cmd := exec.Command("go", "build", "-ldflags", "-X github.com/wisp-sh/wisp/internal/cli.Version="+builtVersion, "-o", build.bin, "github.com/wisp-sh/wisp/cmd/wisp-agent")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		build.out, build.err = cmd.CombinedOutput()
	})
	if build.err != nil {
		t.Fatalf("build wisp: %v\n%s", build.err, build.out)
	}
	return build.bin
}

// needClient skips (fails under WISP_REQUIRE_KERNEL=1) without Node or the
// client's packages.
func needClient(t *testing.T) {
	t.Helper()
	_, err := exec.LookPath("node")
	testenv.NeedKernel(t, err == nil, "node is not installed: the MCP client tests need Node 18 or later")
	_, err = os.Stat("testdata/node_modules/@modelcontextprotocol/sdk/package.json")
	testenv.NeedKernel(t, err == nil, "node_modules missing: run npm ci --prefix mcp/testdata")
}

// world is a project folder, a wisp home and a folder outside the
// writable roots, for one test's `wisp mcp`.
type world struct {
	t                      *testing.T
	bin                    string
	project, home, outside string
}

// newWorld sets config keys (KEY VALUE ...) in a fresh home; the test
// runs in parallel with the others from here.
func newWorld(t *testing.T, settings ...string) *world {
	needClient(t)
	t.Parallel() // each world has its own home, folders and markers
	w := &world{t: t, bin: wispBinary(t), project: t.TempDir()}
	// Under the person's home, which is not a writable root (/tmp is).
	userHome, _ := os.UserHomeDir()
	w.outside = mkdirTemp(t, userHome, "wisp-mcp-outside-")
	w.home = mkdirTemp(t, userHome, "wisp-mcp-home-")
	for i := 0; i+1 < len(settings); i += 2 {
		w.wisp("config", "set", settings[i], settings[i+1])
	}
	return w
}

func mkdirTemp(t *testing.T, dir, pattern string) string {
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func (w *world) env() []string { return append(os.Environ(), "WISP_HOME="+w.home) }

func (w *world) wisp(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Dir, cmd.Env = w.project, w.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("wisp %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// client plays one scenario of testdata/client.mjs and decodes its report.
func (w *world) client(scenario string, args any, report any) {
	w.t.Helper()
	script, _ := filepath.Abs("testdata/client.mjs")
	input, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, w.bin, scenario, string(input))
	cmd.Dir, cmd.Env = w.project, w.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("client %s: %v\nstderr:\n%s", scenario, err, stderr.String())
	}
	if err := json.Unmarshal(out, report); err != nil {
		w.t.Fatalf("client %s reported %q: %v\nstderr:\n%s", scenario, out, err, stderr.String())
	}
}

type call struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

func runCommand(line string, outside bool) call {
	args := map[string]any{"command": line}
	if outside {
		args["outsideSandbox"] = true
	}
	return call{Name: "run_command", Arguments: args}
}

type elicitAnswer struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

type result struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

type elicitation struct {
	Message         string `json:"message"`
	RequestedSchema struct {
		Type       string                     `json:"type"`
		Title      string                     `json:"title"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	} `json:"requestedSchema"`
}

type runReport struct {
	Results      []result      `json:"results"`
	Elicitations []elicitation `json:"elicitations"`
}

// run plays the run scenario: the calls in turn, the elicitations
// answered in order (the last answer repeating), none declared if nil.
func (w *world) run(answers []elicitAnswer, calls ...call) runReport {
	w.t.Helper()
	var rep runReport
	w.client("run", map[string]any{"answers": answers, "calls": calls}, &rep)
	if len(rep.Results) != len(calls) {
		w.t.Fatalf("%d results for %d calls", len(rep.Results), len(calls))
	}
	return rep
}

// audit reads the audit log's events of one kind.
func (w *world) audit(event string) []map[string]any {
	w.t.Helper()
	f, err := os.Open(filepath.Join(w.home, "logs", "audit.jsonl"))
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e map[string]any
		if json.Unmarshal(sc.Bytes(), &e) == nil && e["event"] == event {
			out = append(out, e)
		}
	}
	return out
}

// decided finds approval.decided for a command.
func (w *world) decided(line string) []map[string]any {
	var out []map[string]any
	for _, e := range w.audit("approval.decided") {
		if e["command"] == line {
			out = append(out, e)
		}
	}
	return out
}

func (w *world) pendingLeft() []string {
	entries, _ := os.ReadDir(filepath.Join(w.home, "pending"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
