package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"approval", "commandPolicy", "limits", "model"}
	tests := []struct{ name, want string }{
		{"aproval", "approval"},
		{"APPROVAL", "approval"},
		{"limit", "limits"},
		{"modle", "model"},
		{"zzzzzzzz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.name, keys); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
