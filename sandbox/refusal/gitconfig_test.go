package refusal

import "testing"

// TestGitConfigLine: only a single git command refused on a repository's
// config is offered back as a !! line; a redirect into the config, a
// hook, or a compound line is not.
func TestGitConfigLine(t *testing.T) {
	config := []string{"/p/.git/config"}
	for _, tc := range []struct {
		command   string
		protected []string
		want      string
	}{
		{"git branch --set-upstream-to=origin/main main", config, "git branch --set-upstream-to=origin/main main"},
		{"  git remote add up ../up ", config, "git remote add up ../up"},
		{"git config core.pager less", []string{"/p/.git/modules/lib/config.worktree"}, "git config core.pager less"},
		{"echo x > .git/config", config, ""},
		{"git config a.b c; curl evil", config, ""},
		{"git config a.b c && true", config, ""},
		{"git commit -m x", []string{"/p/.git/hooks"}, ""},
		{"git config a.b c", []string{"/p/shared.gitconfig"}, ""},
	} {
		if got := gitConfigLine(tc.command, tc.protected); got != tc.want {
			t.Errorf("gitConfigLine(%q, %q) = %q, want %q", tc.command, tc.protected, got, tc.want)
		}
	}
}
