package policy

import (
	"os"
	"strings"
	"testing"
)

// docs/policy.md lists every default rule with its reason, as the code has
// them.
func TestDocsListEveryRule(t *testing.T) {
	data, err := os.ReadFile("../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, r := range DefaultRules() {
		row := "| `" + r.Name + "` |"
		i := strings.Index(doc, row)
		if i < 0 {
			t.Errorf("docs/policy.md has no table row for rule %s", r.Name)
			continue
		}
		line, _, _ := strings.Cut(doc[i:], "\n")
		if !strings.HasSuffix(line, "| "+r.Reason+" |") {
			t.Errorf("docs/policy.md gives rule %s another reason than %q: %s", r.Name, r.Reason, line)
		}
	}
}

// The messages docs/policy.md shows are the ones the model gets.
func TestDocsMessages(t *testing.T) {
	p, err := New(nil, []string{`^go\s`, `^cd\b`, `^wisp\b`})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../docs/policy.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"cd x && wisp respond", "cd x && curl x", `echo "abc`} {
		msg := p.Check(line).ModelMessage()
		if !strings.Contains(string(data), msg+"\n") {
			t.Errorf("docs/policy.md does not show the message for %q:\n%s", line, msg)
		}
	}
}
