package refusal

import (
	"strings"
	"sync"
)

// readPhrases mark a refused read or lookup. The sandbox confines writes
// only, so a refused read is never its doing, and naming the path as a
// refused write would mislead.
var readPhrases = []string{
	"for reading", "cannot open directory", "cannot read directory", "cannot access",
	"cannot stat", "cannot read", "Could not open directory", "could not open directory",
	"error reading", "failed to get attributes of", "cannot execute", "can't cd to",
	"Can't open perl script",
}

// readTools only read what they name (find too, unless it deletes).
var readTools = setOf("cat", "ls", "grep", "egrep", "fgrep", "rg", "ag", "head", "tail",
	"less", "more", "wc", "du", "stat", "diff", "cmp", "od", "hexdump", "xxd", "file",
	"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
	"cksum", "readlink", "realpath", "tree", "find", "which")

func isRead(line string) bool {
	for _, p := range readPhrases {
		if strings.Contains(line, p) {
			return true
		}
	}
	if strings.HasPrefix(line, "cd: ") || strings.Contains(line, ": cd: ") {
		return true // a shell's cd: searching a directory is a read
	}
	return readTools(firstField(line)) && !strings.Contains(line, "cannot delete")
}

// isLoginRefusal: ssh's "Permission denied (publickey)." and its password
// retry are a server's answer, not the local kernel's.
func isLoginRefusal(tail string) bool {
	for _, p := range []string{" (publickey", " (password", " (keyboard-interactive", " (gssapi", ", please try again"} {
		if strings.HasPrefix(tail, p) {
			return true
		}
	}
	return false
}

// notPaths are words a "name: WORD: errno" line has where a file name could
// be: labels, shell builtins, system calls, programs.
var notPaths = setOf("error", "fatal", "warning", "warn", "panic", "e", "err", "info",
	"debug", "note", "hint", "kill", "cd", "exec", "ulimit", "connect", "socket", "bind",
	"sendto", "sendmsg", "accept", "listen", "ptrace", "attach", "mount", "umount",
	"unshare", "chroot", "sudo", "su", "renice", "nice", "ionice", "taskset", "setuid",
	"setgid", "setgroups", "fork", "clone", "prctl", "ioctl", "open", "write", "read",
	"mkdir", "unlink", "rename", "chmod", "chown", "sh", "bash", "dash", "zsh", "ksh",
	"fish", "python", "python3", "node", "npm", "perl", "ruby", "git", "tar", "make",
	"traceback", "permissionerror", "oserror", "signal", "trap", "nohup", "env",
	"stdin", "stdout", "stderr", "standard input", "standard output", "write error")

// looksLikePath: a path counts when it has a slash, or is a bare name in
// the working directory that is not a program's name, a label or a number.
func looksLikePath(p, tool string) bool {
	if p == "" || len(p) > 4096 || strings.ContainsAny(p, "\n\x00") || strings.Contains(p, "://") {
		return false
	}
	if strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/") {
		return false
	}
	if strings.Contains(p, "/") || p == "~" {
		return true
	}
	lower := strings.ToLower(p)
	return p != tool && !notPaths(lower) && !allDigits(p) && !strings.HasPrefix(lower, "line ") &&
		!strings.HasPrefix(p, "-") && !strings.HasPrefix(p, "[")
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// setOf is a set of words, made the first time it is asked: every wisp
// links this package, and most never read a refusal.
func setOf(words ...string) func(string) bool {
	set := sync.OnceValue(func() map[string]bool {
		m := make(map[string]bool, len(words))
		for _, w := range words {
			m[w] = true
		}
		return m
	})
	return func(w string) bool { return set()[w] }
}
