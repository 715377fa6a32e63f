// Package launch owns what a command line means before any command runs
// (a bare `wisp` on a terminal is a chat) and the hint under an error. It
// imports nothing of wisp's, so the lean build's main can call it.
package launch

import "errors"

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

// Hint is the line of what to do that err carries (an error with a
// Hint() string method anywhere in its chain, as the sandbox's are), ""
// if none: the faces print it as `wisp: hint:` under the error.
func Hint(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}
