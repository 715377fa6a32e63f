package approval

import "testing"

// A held approval's line in `wisp approvals list` and chat's /approvals:
// scope, line or prefix, the line escaped, where it holds.
func TestEntryString(t *testing.T) {
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Scope: Always, Line: "go test ./..."}, "always  line   go test ./...  (everywhere)"},
		{Entry{Scope: Project, Project: "/home/ana/shop", Line: "go test …", Prefix: true}, "project prefix go test …  (/home/ana/shop)"},
		{Entry{Scope: Project, Project: "/p\x1b[2J", Line: "rm -r build\nrm -rf ~"}, `project line   rm -r build\nrm -rf ~  (/p\x1b[2J)`},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.e, got, tc.want)
		}
	}
}
