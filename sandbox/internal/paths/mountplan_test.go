package paths

import (
	"slices"
	"testing"
)

func TestPlanMounts(t *testing.T) {
	roots := []string{"/tmp", "/tmp/proj", "/home/ana/.cache"}
	for _, tc := range []struct {
		name    string
		protect []string
		want    []MountOp
	}{
		{"outside every root needs nothing", []string{"/home/ana/.wisp"}, nil},
		{"a root itself is not bound", []string{"/tmp"}, nil},
		{"git files: .git pinned, then the files read-only",
			[]string{"/tmp/proj/.git/hooks", "/tmp/proj/.git/config"},
			[]MountOp{{"/tmp/proj", false}, {"/tmp/proj/.git", false}, {"/tmp/proj/.git/hooks", true}, {"/tmp/proj/.git/config", true}}},
		{"pinned from the outermost root, so the inner root cannot be moved either",
			[]string{"/tmp/proj/.wisp"},
			[]MountOp{{"/tmp/proj", false}, {"/tmp/proj/.wisp", true}}},
		{"a protected folder inside another is bound read-only, not pinned",
			[]string{"/tmp/proj/.wisp/bin/wisp", "/tmp/proj/.wisp"},
			[]MountOp{{"/tmp/proj", false}, {"/tmp/proj/.wisp", true}, {"/tmp/proj/.wisp/bin", false}, {"/tmp/proj/.wisp/bin/wisp", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlanMounts(roots, tc.protect); !slices.Equal(got, tc.want) {
				t.Fatalf("PlanMounts = %v\nwant %v", got, tc.want)
			}
		})
	}
}
