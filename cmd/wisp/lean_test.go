package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The lean wisp (this main, internal/cli alone) runs what talks to no
// model itself and execs wisp-agent (cmd/wisp-agent, internal/cli with
// internal/cli/agentcli) beside it for the agent's commands. These tests
// build it and stand a script in for the agent, which shows what it was run
// with: wisp-agent's own commands are what cmd/wisp-agent's tests run.

// TestLeanBuildLinksNoFace: what the faces link must stay out of the lean
// build, whose every start, `wisp run` and `wisp version` included, runs
// the initialisers of all it links. A new face's command goes in
// internal/cli/agentcli, which only wisp-agent links.
func TestLeanBuildLinksNoFace(t *testing.T) {
	out, err := exec.Command(goTool(t), "list", "-deps", "github.com/wisp-sh/wisp/cmd/wisp").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	// Folders by their prefix (a trailing /), packages by their path: a
	// package of a face's own that links none of this (model/probe) may.
	heavy := []string{"github.com/openai/", "github.com/modelcontextprotocol/", "github.com/google/jsonschema-go/",
		"encoding/gob", "github.com/charmbracelet/", "github.com/wisp-sh/wisp/internal/agent", "github.com/wisp-sh/wisp/internal/chat",
		"github.com/wisp-sh/wisp/internal/mcp", "github.com/wisp-sh/wisp/internal/model", "github.com/wisp-sh/wisp/internal/tui",
		"github.com/wisp-sh/wisp/internal/tools", "github.com/wisp-sh/wisp/internal/cli/agentcli", "github.com/wisp-sh/wisp/internal/app/agentapp",
		"github.com/wisp-sh/wisp/internal/netproxy/httpproxy",
		// HTTP (the proxy, doctor's model check) and the desktop bus (doctor):
		// net/http's initialisers alone cost every start half a millisecond.
		"net/http", "crypto/tls", "crypto/x509", "github.com/godbus/", "github.com/wisp-sh/wisp/internal/freedesktop"}
	for _, pkg := range strings.Fields(string(out)) {
		for _, h := range heavy {
			if pkg == strings.TrimSuffix(h, "/") || strings.HasSuffix(h, "/") && strings.HasPrefix(pkg, h) {
				t.Errorf("the lean wisp links %s", pkg)
			}
		}
	}
}

// TestLeanWispHandsFacesToTheAgent: the faces, a bare prompt and help go to
// wisp-agent with the same words; run and version stay in the lean wisp.
func TestLeanWispHandsFacesToTheAgent(t *testing.T) {
	dir, wisp := buildLean(t)
	fakeAgent(t, dir, 0o755)
	agent := filepath.Join(dir, agentName)
	for _, args := range [][]string{{"chat", "--yes"}, {"respond", "make it so"}, {"mcp"}, {"tui"}, {"doctor"}, {"fix the build"}, {}, {"--help"}, {"completion", "bash"}} {
		out, err := exec.Command(wisp, args...).CombinedOutput()
		want := strings.Join(append([]string{"agent", agent}, args...), "|")
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("wisp %q: %v %q; want the agent run as %q", args, err, out, want)
		}
	}
	out, err := exec.Command(wisp, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "wisp ") {
		t.Errorf("wisp version: %v %q", err, out)
	}
	run := exec.Command(wisp, "run", "--", "echo ran")
	run.Dir, run.Env = t.TempDir(), append(os.Environ(), "WISP_HOME="+outsideHome(t))
	out, err = run.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ran" {
		t.Errorf("wisp run in the lean wisp: %v\n%s", err, out)
	}
}

// TestLeanWispNeedsATrustedAgent: no agent beside the lean wisp, or one
// that others could have changed, is said, and nothing is run.
func TestLeanWispNeedsATrustedAgent(t *testing.T) {
	dir, wisp := buildLean(t)
	out, err := exec.Command(wisp, "chat").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "wisp-agent, which runs chat, respond, mcp, tui and doctor, is not beside wisp") ||
		!strings.Contains(string(out), "wisp: hint: install wisp again") {
		t.Errorf("wisp chat with no agent: %v\n%s", err, out)
	}
	fakeAgent(t, dir, 0o757)
	out, err = exec.Command(wisp, "chat").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "may be written by others") || strings.Contains(string(out), "agent|") {
		t.Errorf("wisp chat with an agent anyone may write: %v\n%s", err, out)
	}
	if out, err := exec.Command(wisp, "version").CombinedOutput(); err != nil {
		t.Errorf("wisp version without a usable agent: %v\n%s", err, out)
	}
}

// TestLeanWispHandsAProxiedRunToTheAgent: a run that wants wisp's network
// proxy (allowedDomains), which the lean wisp leaves out, is the agent's,
// with the same words, before anything is logged or run; with no agent it
// fails closed, and the command never runs.
func TestLeanWispHandsAProxiedRunToTheAgent(t *testing.T) {
	dir, wisp := buildLean(t)
	home := outsideHome(t)
	cfg := `{"commandPolicy": {"sandbox": {"allowNetwork": false, "allowedDomains": ["example.com"]}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	run := func() (string, error) {
		cmd := exec.Command(wisp, "run", "--", "touch ran")
		cmd.Dir, cmd.Env = work, append(os.Environ(), "WISP_HOME="+home)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if err == nil || !strings.Contains(out, "wisp-agent, which runs chat, respond, mcp, tui and doctor, is not beside wisp") {
		t.Errorf("a proxied run with no agent: %v\n%s", err, out)
	}
	fakeAgent(t, dir, 0o755)
	out, err = run()
	want := strings.Join([]string{"agent", filepath.Join(dir, agentName), "run", "--", "touch ran"}, "|")
	if err != nil || strings.TrimSpace(out) != want {
		t.Errorf("a proxied run: %v %q; want the agent run as %q", err, out, want)
	}
	if _, err := os.Stat(filepath.Join(work, "ran")); err == nil {
		t.Error("the lean wisp ran the command itself, without the proxy its configuration asks for")
	}
	if logs, _ := filepath.Glob(filepath.Join(home, "logs", "*")); len(logs) > 0 {
		t.Errorf("the lean wisp logged before it handed the run on: %v", logs)
	}
}

// agentName is the executable the lean wisp hands the agent's commands to.
const agentName = "wisp-agent"

// buildLean builds wisp as make does into a folder of its own.
func buildLean(t *testing.T) (dir, wisp string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wisp = filepath.Join(dir, "wisp")
	cmd := exec.Command(goTool(t), "build", "-o", wisp, "github.com/wisp-sh/wisp/cmd/wisp")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the lean wisp: %v\n%s", err, out)
	}
	return dir, wisp
}

// fakeAgent stands a script in for wisp-agent that prints how it was run.
func fakeAgent(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(dir, agentName)
	script := "#!/bin/sh\n(printf agent; for a in \"$0\" \"$@\"; do printf '|%s' \"$a\"; done; echo) \n"
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// outsideHome is a wisp home outside every writable root (not under /tmp).
func outsideHome(t *testing.T) string {
	t.Helper()
	userHome, _ := os.UserHomeDir()
	home, err := os.MkdirTemp(userHome, "wisp-lean-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	return home
}

func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go tool to build the lean wisp with: %v", err)
	}
	return p
}
