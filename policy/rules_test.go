package policy

import (
	"regexp"
	"testing"
)

// The default patterns are compiled on first use, where a bad one would
// panic: every one must compile, and its lazily compiled regexp must be the
// pattern's.
func TestDefaultPatternsCompile(t *testing.T) {
	for _, r := range defaultRules() {
		if _, err := regexp.Compile(r.Pattern); err != nil {
			t.Errorf("rule %s: %v", r.Name, err)
			continue
		}
		if got := r.re().String(); got != r.Pattern {
			t.Errorf("rule %s compiles to %q, want its pattern %q", r.Name, got, r.Pattern)
		}
	}
}
