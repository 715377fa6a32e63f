package landlock

import "testing"

func TestOwnLeader(t *testing.T) {
	const serving, pid = 4000, 4100
	tests := []struct {
		name string
		stat string
		want bool
	}{
		{"its child, leading its group", "4100 (sh) R 4000 4100 4100 0 -1", true},
		{"its child, a zombie", "4100 (sh) Z 4000 4100 4100 0 -1", true},
		{"being reaped as it is read", "4100 (sh) X 0 0 0 0 -1", true},
		{"being reaped, its group unhashed too", "4100 (sh) X 0 -1 -1 0 -1 4227084", true},
		{"alive, with group -1", "4100 (sh) S 0 -1 -1", false},
		{"a comm with spaces and parentheses", "4100 (a) b (c) S 4000 4100 4100", true},
		{"another process's child", "4100 (sh) S 1 4100 4100", false},
		{"not leading its group", "4100 (sh) S 4000 3999 3999", false},
		{"kthreadd: parent and group 0, but alive", "4100 (kthreadd) S 0 0 0", false},
		{"a kernel thread", "4100 (kworker/0:1) I 2 0 0", false},
		{"cut short", "4100 (sh) S", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got := ownLeader([]byte(tt.stat), serving, pid); got != tt.want {
			t.Errorf("%s: ownLeader(%q) = %v, want %v", tt.name, tt.stat, got, tt.want)
		}
	}
}
