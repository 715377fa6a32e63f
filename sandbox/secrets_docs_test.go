package sandbox_test

import (
	"os"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// TestDenyReadDefaultsDocumented: docs/config.md names every default
// denyRead entry, on both systems, with why it is there.
func TestDenyReadDefaultsDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, entry := range sandbox.DefaultDenyRead("darwin") {
		if !strings.Contains(doc, "`"+entry+"`") {
			t.Errorf("docs/config.md does not name the default denyRead entry %s", entry)
		}
	}
}
