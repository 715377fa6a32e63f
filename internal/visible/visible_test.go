package visible

import "testing"

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"touch a\nrm -rf b", `touch a\nrm -rf b`},
		{"echo \x1b[2Jok", `echo \x1b[2Jok`},
		{"a\tb", `a\tb`},
		{"rm \u202eexe.txt", `rm \u202eexe.txt`},
		{"bad \xff byte", `bad \xff byte`},
		{"real \uFFFD stays", "real \uFFFD stays"},
		{"ünïcode ok", "ünïcode ok"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
