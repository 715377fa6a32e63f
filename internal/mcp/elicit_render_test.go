package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The dialog a real MCP client receives shows the model's escapes and
// newlines as escapes: \e[8m cannot hide what follows, and a newline in
// the command or in add_directory's reason cannot forge an "in DIR" or a
// reason line. The title is wisp's.
func TestElicitationShowsTheModelsEscapesVisibly(t *testing.T) {
	w := newWorld(t, "approval.threshold", "never")
	folder := filepath.Join(w.outside, "work")
	os.Mkdir(folder, 0o755)
	forged := "\x1b[8m hidden\nin /forged\n· nothing leaves the sandbox\x1b]0;pwned\x07"
	rep := w.run([]elicitAnswer{{Action: "decline"}, {Action: "decline"}},
		runCommand("echo hi"+forged, true),
		call{Name: "add_directory", Arguments: map[string]any{"path": folder, "reason": "needed" + forged}})
	if len(rep.Elicitations) != 2 {
		t.Fatalf("asked %d times, want 2", len(rep.Elicitations))
	}
	for i, e := range rep.Elicitations {
		if strings.ContainsAny(e.Message+e.RequestedSchema.Title, "\x1b\x07") {
			t.Errorf("dialog %d holds a raw escape:\n%q", i, e.Message)
		}
		if !strings.Contains(e.Message, `\x1b[8m hidden\nin /forged\n· nothing leaves the sandbox\x1b]0;pwned\a`) {
			t.Errorf("dialog %d does not show the escapes:\n%s", i, e.Message)
		}
		for _, l := range strings.Split(e.Message, "\n") {
			if strings.HasPrefix(l, "in /forged") || strings.HasPrefix(l, "· nothing leaves") {
				t.Errorf("dialog %d has a forged line %q:\n%s", i, l, e.Message)
			}
		}
	}
	if got := rep.Elicitations[0].RequestedSchema.Title; got != "wisp: run OUTSIDE the sandbox? (moderate risk)" {
		t.Errorf("title %q", got)
	}
	if got := rep.Elicitations[1].RequestedSchema.Title; got != "wisp: let commands write in "+folder+" for this session?" {
		t.Errorf("title %q", got)
	}
}
