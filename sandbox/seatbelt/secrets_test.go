package seatbelt_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

// secretsSpec is exampleSpec with the macOS defaults' shape: secrets
// denied, one allowRead entry inside them given back.
func secretsSpec() sandbox.Spec {
	spec := exampleSpec(true)
	spec.DenyRead = []string{"/Users/ana/.ssh", "/Users/ana/.aws", "/Users/ana/Library/Keychains", "/Users/ana/.netrc"}
	spec.AllowRead = []string{"/Users/ana/.ssh/known_hosts"}
	return spec
}

// TestSeatbeltSecretsGolden pins the profile with secrets denied and one
// given back; -update rewrites it.
func TestSeatbeltSecretsGolden(t *testing.T) {
	golden(t, filepath.Join("testdata", "seatbelt-secrets.sb"), seatbelt.Profile(secretsSpec()))
}

// TestSeatbeltSecretsAsParameters: each secret and allowRead entry reaches
// sandbox-exec as a -D parameter, and a path full of SBPL's syntax leaves
// the text as any other would.
func TestSeatbeltSecretsAsParameters(t *testing.T) {
	args := seatbelt.Args(secretsSpec(), "true")
	for _, want := range []string{"DENYREAD_0=/Users/ana/.ssh", "DENYREAD_3=/Users/ana/.netrc", "ALLOWREAD_0=/Users/ana/.ssh/known_hosts"} {
		if !slices.Contains(args, want) {
			t.Errorf("argv lacks -D %s: %q", want, args)
		}
	}
	hostile := sandbox.Spec{Roots: []string{"/p"}, DenyRead: []string{`/x") (allow file-read* (subpath "/`, "/y\n(allow default"}, AllowRead: []string{`/z"`}}
	plain := sandbox.Spec{Roots: []string{"/p"}, DenyRead: []string{"/a", "/b"}, AllowRead: []string{"/c"}}
	if got, want := seatbelt.Profile(hostile), seatbelt.Profile(plain); got != want {
		t.Fatalf("hostile secret paths changed the profile:\n%s", got)
	}
}

// TestSeatbeltSecretsOrder: every profile with secrets is well formed, the
// secrets are denied after (allow default), and allowRead is allowed after
// the denial, since the last matching rule wins.
func TestSeatbeltSecretsOrder(t *testing.T) {
	for deny := 1; deny <= 3; deny++ {
		for allow := 0; allow <= 2; allow++ {
			spec := sandbox.Spec{Roots: []string{"/r"}, DenyRead: numbered("/d", deny), AllowRead: numbered("/a", allow), Network: true}
			t.Run(fmt.Sprintf("deny=%d/allow=%d", deny, allow), func(t *testing.T) {
				checkProfile(t, spec)
				text := seatbelt.Profile(spec)
				def, denied := strings.Index(text, "(allow default)"), strings.Index(text, "(deny file-read*\n  (subpath (param \"DENYREAD_")
				if def < 0 || denied < def {
					t.Fatalf("the secrets are not denied after (allow default):\n%s", text)
				}
				given := strings.Index(text, "(allow file-read*\n  (subpath (param \"ALLOWREAD_")
				if (allow > 0) != (given > denied) {
					t.Fatalf("allowRead given back at %d, denial at %d, with %d entries:\n%s", given, denied, allow, text)
				}
			})
		}
	}
}

// TestSeatbeltHomeNotGivenBack: wisp's home stays unreadable, metadata
// included, even where a denyRead entry holds it and an allowRead entry
// names it: its denial comes after what allowRead gives back.
func TestSeatbeltHomeNotGivenBack(t *testing.T) {
	spec := exampleSpec(true)
	spec.DenyRead, spec.AllowRead = []string{"/Users/ana"}, []string{"/Users/ana/.wisp", "/Users/ana/src"}
	forms, params := parsedProfile(t, spec)
	for _, d := range []decision{
		{"the home's config", sbplQuery{op: "file-read-data", path: "/Users/ana/.wisp/config.json"}, false},
		{"an output's size", sbplQuery{op: "file-read-metadata", path: "/Users/ana/.wisp/outputs/c1.log"}, false},
		{"allowRead's other entry", sbplQuery{op: "file-read-data", path: "/Users/ana/src/app/main.go"}, true},
		{"a name beside the home", sbplQuery{op: "file-read-data", path: "/Users/ana/.wisp-other"}, false},
	} {
		if got, by := sbplDecide(t, forms, params, d.q); got != d.allow {
			t.Errorf("%s (%s %s): allowed = %v by %s, want %v", d.what, d.q.op, d.q.path, got, by, d.allow)
		}
	}
}
