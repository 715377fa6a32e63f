package deptest

import (
	"slices"
	"strings"
	"testing"
)

// fakeGraph builds a graph from "pkg: import import ..." lines, with
// module-relative names for wisp's packages (a name with a dot or in std is
// taken as is), and computes Deps as go list would.
func fakeGraph(lines ...string) Graph {
	graph := Graph{}
	for _, line := range lines {
		name, imports, _ := strings.Cut(line, ":")
		pkg := &Package{ImportPath: fakePath(name), Standard: isStd(name)}
		for _, imp := range strings.Fields(imports) {
			pkg.Imports = append(pkg.Imports, fakePath(imp))
		}
		graph[pkg.ImportPath] = pkg
	}
	for _, pkg := range graph {
		pkg.Deps = graph.closure(pkg.ImportPath)
	}
	return graph
}

var stdNames = []string{"net/http", "net", "os", "fmt", "runtime/cgo"}

func isStd(name string) bool { return slices.Contains(stdNames, strings.TrimSpace(name)) }

func fakePath(name string) string {
	name = strings.TrimSpace(name)
	if isStd(name) || strings.Contains(name, ".") {
		return name
	}
	return Module + "/" + name
}

func (g Graph) closure(from string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(at string) {
		for _, next := range g.imports(at) {
			if !seen[next] {
				seen[next] = true
				walk(next)
			}
		}
	}
	walk(from)
	var deps []string
	for dep := range seen {
		deps = append(deps, dep)
	}
	slices.Sort(deps)
	return deps
}

func violationsText(found []Violation) []string {
	var text []string
	for _, v := range found {
		text = append(text, strings.ReplaceAll(v.String(), Module+"/", ""))
	}
	return text
}

func TestCheckFindsForbiddenDependencies(t *testing.T) {
	tests := []struct {
		name  string
		graph Graph
		want  []string
	}{{
		name:  "the design's direction holds",
		graph: fakeGraph("internal/config: os", "audit: internal/config", "policy: internal/config fmt", "sandbox: sandbox/refusal internal/config", "sandbox/refusal: os", "pending: internal/config", "internal/runner: policy sandbox pending audit net/http", "internal/approval: pending audit", "internal/chat: internal/runner internal/approval", "cmd/wisp: internal/chat cmd/wisp/internal/ui", "cmd/wisp/internal/ui: fmt", "os:", "fmt:", "net/http: net", "net:"),
	}, {
		name:  "the core never reaches a face, even through another package",
		graph: fakeGraph("policy: internal/runner", "internal/runner: internal/chat", "internal/chat:"),
		want: []string{
			"internal/runner depends on internal/chat (only faces depend on a face): internal/runner -> internal/chat",
			"policy depends on internal/chat (only faces depend on a face): policy -> internal/runner -> internal/chat",
			"policy depends on internal/runner (policy never reaches it): policy -> internal/runner",
		},
	}, {
		name:  "no package but a face depends on a face",
		graph: fakeGraph("internal/tools: internal/runner", "internal/runner:", "internal/model: internal/freedesktop", "internal/freedesktop:", "cmd/wisp-bar: internal/bar internal/freedesktop", "internal/bar:", "internal/app: internal/chat internal/mcp", "internal/chat: internal/tools", "internal/mcp: internal/tools"),
		want: []string{
			"internal/model depends on internal/freedesktop (only faces depend on a face): internal/model -> internal/freedesktop",
		},
	}, {
		name:  "a subpackage follows its parent's rule",
		graph: fakeGraph("sandbox/refusal: net/http", "net/http: net", "net:"),
		want: []string{
			"sandbox/refusal depends on net/http (sandbox never reaches it): sandbox/refusal -> net/http",
		},
	}, {
		name:  "config depends on no other wisp package",
		graph: fakeGraph("internal/config: internal/testenv", "internal/testenv: os", "os:"),
		want: []string{
			"internal/config depends on internal/testenv (internal/config depends on no other wisp package than internal/suggest): internal/config -> internal/testenv",
		},
	}, {
		name:  "audit may import config and nothing else of wisp",
		graph: fakeGraph("audit: internal/config policy", "internal/config:", "policy:"),
		want: []string{
			"audit depends on policy (audit depends on no other wisp package than internal/config, internal/suggest, internal/visible): audit -> policy",
		},
	}, {
		name:  "approval never reaches the menu bar",
		graph: fakeGraph("internal/approval: internal/bar", "internal/bar:", "internal/freedesktop:"),
		want: []string{
			"internal/approval depends on internal/bar (only faces depend on a face): internal/approval -> internal/bar",
		},
	}, {
		name:  "the agent's faces share the agent",
		graph: fakeGraph("cmd/wisp: internal/chat internal/tui", "internal/chat: internal/agent", "internal/tui: internal/agent", "internal/agent: internal/tools", "internal/tools:"),
	}, {
		name:  "the full screen never reaches the line face",
		graph: fakeGraph("internal/tui: internal/agent internal/chat", "internal/chat: internal/agent", "internal/agent:"),
		want: []string{
			"internal/tui depends on internal/chat (internal/tui never reaches it): internal/tui -> internal/chat",
		},
	}, {
		name:  "the line face never reaches the full screen",
		graph: fakeGraph("internal/chat: internal/agent internal/tui", "internal/tui: internal/agent", "internal/agent:"),
		want: []string{
			"internal/chat depends on internal/tui (internal/chat never reaches it): internal/chat -> internal/tui",
		},
	}, {
		name:  "the agent never reaches a face",
		graph: fakeGraph("internal/agent: internal/chat", "internal/chat:"),
		want: []string{
			"internal/agent depends on internal/chat (only faces depend on a face): internal/agent -> internal/chat",
		},
	}, {
		name:  "nothing outside a command imports its packages",
		graph: fakeGraph("internal/model: cmd/wisp/internal/ui", "cmd/wisp-bar: cmd/wisp/internal/ui", "cmd/wisp/internal/ui:"),
		want: []string{
			"cmd/wisp-bar depends on cmd/wisp/internal/ui (nothing outside cmd/wisp imports it): cmd/wisp-bar -> cmd/wisp/internal/ui",
			"internal/model depends on cmd/wisp/internal/ui (nothing outside cmd/wisp imports it): internal/model -> cmd/wisp/internal/ui",
		},
	}, {
		name:  "backends import the sandbox's front, never the front a backend",
		graph: fakeGraph("sandbox/landlock: sandbox sandbox/gitguard", "sandbox/seatbelt: sandbox", "sandbox: sandbox/gitguard sandbox/seatbelt", "sandbox/gitguard:"),
		want: []string{
			"sandbox depends on sandbox/seatbelt (sandbox never reaches it): sandbox -> sandbox/seatbelt",
		},
	}, {
		name:  "the sandbox never reaches the gate, the runner or the lists",
		graph: fakeGraph("sandbox/landlock: internal/approval", "internal/approval: policy", "policy:"),
		want: []string{
			"sandbox/landlock depends on internal/approval (sandbox never reaches it): sandbox/landlock -> internal/approval",
			"sandbox/landlock depends on policy (sandbox never reaches it): sandbox/landlock -> internal/approval -> policy",
		},
	}, {
		name:  "the model client never runs a command",
		graph: fakeGraph("internal/model: internal/runner", "internal/runner:"),
		want: []string{
			"internal/model depends on internal/runner (internal/model never reaches it): internal/model -> internal/runner",
		},
	}, {
		name:  "wisp-bar's side never links what runs commands",
		graph: fakeGraph("cmd/wisp-bar: internal/bar", "internal/bar: pending internal/runner", "pending:", "internal/runner:"),
		want: []string{
			"cmd/wisp-bar depends on internal/runner (cmd/wisp-bar never reaches it): cmd/wisp-bar -> internal/bar -> internal/runner",
			"internal/bar depends on internal/runner (internal/bar never reaches it): internal/bar -> internal/runner",
		},
	}, {
		name:  "only the proxy's HTTP front links net/http",
		graph: fakeGraph("internal/netproxy: net/http", "internal/netproxy/httpproxy: internal/netproxy net/http", "net/http:"),
		want: []string{
			"internal/netproxy depends on net/http (internal/netproxy never reaches it): internal/netproxy -> net/http",
		},
	}, {
		name:  "the lean commands never link the agent's",
		graph: fakeGraph("internal/cli: internal/cli/agentcli", "internal/cli/agentcli: internal/cli internal/app", "internal/app:"),
		want: []string{
			"internal/cli depends on internal/cli/agentcli (internal/cli never reaches it): internal/cli -> internal/cli/agentcli",
		},
	}, {
		name:  "packages that do not exist yet are not checked",
		graph: fakeGraph("internal/model: fmt", "fmt:"),
	}}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			got := violationsText(Check(test.graph, Rules))
			if !slices.Equal(got, test.want) {
				t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(test.want, "\n"))
			}
		})
	}
}

func TestCheckPureGoFindsCgo(t *testing.T) {
	graph := fakeGraph("cmd/wisp: internal/runner net", "internal/runner: example.com/tray example.com/psx", "example.com/tray:", "example.com/psx:", "net: runtime/cgo", "runtime/cgo:")
	graph[Module+"/cmd/wisp"].Standard = false
	graph["example.com/tray"].CgoFiles = []string{"tray_darwin.go"}
	graph["example.com/psx"].CgoFiles = []string{"psx_cgo.go"} // a known fallback
	graph["net"].CgoFiles = []string{"cgo_unix.go"}            // std: has a pure-Go fallback
	graph["runtime/cgo"].Error = &PackageError{Err: "build constraints exclude all Go files"}
	got := violationsText(CheckPureGo(graph, Module+"/cmd/wisp", []string{"example.com/psx"}))
	want := []string{
		"cmd/wisp depends on example.com/tray (cgo files tray_darwin.go, but wisp builds with CGO_ENABLED=0): cmd/wisp -> internal/runner -> example.com/tray",
		"cmd/wisp depends on runtime/cgo (go list: build constraints exclude all Go files): cmd/wisp -> net -> runtime/cgo",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := CheckPureGo(Graph{}, Module+"/cmd/wisp", nil); len(got) != 1 {
		t.Errorf("a program missing from the listing gave %v, want one violation", got)
	}
}
