// Package launch owns what a command line means before any command runs
// (a bare `wisp` on a terminal is a chat). It imports nothing of wisp's, so
// the lean build's main can call it.
package launch

// BareArgs is what a bare `wisp` means: on a terminal (stdin and stdout
// both), a chat, as claude, codex and aider start one; anywhere else (a
// pipe, a script, cron) the usage, as before, so no script waits on a
// prompt it cannot answer. Any argument (--help, a command) is kept as
// typed.
func BareArgs(args []string, stdinTerminal, stdoutTerminal bool) []string {
	if len(args) == 0 && stdinTerminal && stdoutTerminal {
		return []string{"chat"}
	}
	return args
}
