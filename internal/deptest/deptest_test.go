package deptest

import (
	"testing"
)

// platforms are those wisp ships for; darwin is listed without a Mac, since
// listing runs no compiler.
var platforms = []Platform{
	{GOOS: "linux", GOARCH: "amd64", Cgo: true},
	{GOOS: "darwin", GOARCH: "arm64", Cgo: true},
}

func listOrFatal(t *testing.T, platform Platform, patterns ...string) Graph {
	t.Helper()
	graph, err := List(".", platform, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// TestImportDirection checks wisp's packages as built for each platform
// against Rules.
func TestImportDirection(t *testing.T) {
	for _, platform := range platforms {
		t.Run(platform.GOOS, func(t *testing.T) {
			graph := listOrFatal(t, platform, Module+"/...")
			for _, path := range []string{Module + "/internal/config", Module + "/cmd/wisp"} {
				if _, ok := graph[path]; !ok {
					t.Fatalf("the listing for %s lacks %s: the check would see nothing", platform, path)
				}
			}
			for _, v := range Check(graph, Rules) {
				t.Errorf("%s: %s", platform, v)
			}
		})
	}
}

// TestWispBuildsWithoutCgo checks that the closures of cmd/wisp and
// cmd/wisp-agent (both built with CGO_ENABLED=0) list cleanly with
// CGO_ENABLED=0, and that with cgo on nothing outside the standard library
// (and PureGoFallbacks) would bring cgo in.
func TestWispBuildsWithoutCgo(t *testing.T) {
	for _, platform := range platforms {
		for _, cgo := range []bool{false, true} {
			platform.Cgo = cgo
			t.Run(platform.String(), func(t *testing.T) {
				for _, program := range []string{Module + "/cmd/wisp", Module + "/cmd/wisp-agent"} {
					graph := listOrFatal(t, platform, program)
					for _, v := range CheckPureGo(graph, program, PureGoFallbacks) {
						t.Errorf("%s: %s", platform, v)
					}
				}
			})
		}
	}
}
