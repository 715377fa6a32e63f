// Package deptest enforces the import direction of wisp's package table
// (DESIGN.md, "Packages"): no package but a face (chat, mcp, bar, cmd/...,
// darwin, freedesktop) depends on a face, nothing outside a command imports
// that command's packages, the core (config, audit, policy, sandbox,
// pending) never reaches net/http, config depends on no other wisp package
// and audit only on config, and `wisp` itself builds without cgo. The rules are data (Rules), the
// import graph comes from `go list -deps -json` for each platform, and the
// check is a plain function over both, so its tests can feed it a fake
// graph. Packages that do not exist yet are simply not checked.
package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// Package is the part of `go list -json`'s answer the checks read.
type Package struct {
	ImportPath string
	Standard   bool
	Imports    []string // resolved import paths of its direct imports
	Deps       []string // every package it depends on, directly or not
	CgoFiles   []string
	Error      *PackageError
}

// PackageError is a problem the go command met listing a package.
type PackageError struct{ Err string }

// Graph maps each listed package's import path to what the go command
// said about it.
type Graph map[string]*Package

// Platform is the environment one listing is made for.
type Platform struct {
	GOOS, GOARCH string
	Cgo          bool
}

func (p Platform) String() string {
	return fmt.Sprintf("%s/%s CGO_ENABLED=%d", p.GOOS, p.GOARCH, map[bool]int{false: 0, true: 1}[p.Cgo])
}

func (p Platform) env() []string {
	cgo := "0"
	if p.Cgo {
		cgo = "1"
	}
	return append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED="+cgo)
}

// List runs `go list -e -deps -json` on patterns for platform, in dir.
func List(dir string, platform Platform, patterns ...string) (Graph, error) {
	args := append([]string{"list", "-e", "-deps",
		"-json=ImportPath,Standard,Imports,Deps,CgoFiles,Error"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, platform.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list for %s: %w: %s", platform, err, strings.TrimSpace(stderr.String()))
	}
	return decodeGraph(bytes.NewReader(out))
}

// decodeGraph reads go list's stream of JSON objects.
func decodeGraph(r io.Reader) (Graph, error) {
	graph := Graph{}
	decoder := json.NewDecoder(r)
	for {
		var pkg Package
		err := decoder.Decode(&pkg)
		if errors.Is(err, io.EOF) {
			return graph, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		graph[pkg.ImportPath] = &pkg
	}
}

// chain returns a shortest import path from one package to another, for
// saying how a forbidden dependency comes in.
func (g Graph) chain(from, to string) []string {
	previous := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if at == to {
			return g.unwind(previous, to)
		}
		for _, next := range g.imports(at) {
			if _, seen := previous[next]; !seen {
				previous[next] = at
				queue = append(queue, next)
			}
		}
	}
	return []string{from, "…", to}
}

func (g Graph) imports(path string) []string {
	if pkg, ok := g[path]; ok {
		return pkg.Imports
	}
	return nil
}

func (g Graph) unwind(previous map[string]string, to string) []string {
	var path []string
	for at := to; at != ""; at = previous[at] {
		path = append([]string{at}, path...)
	}
	return path
}
