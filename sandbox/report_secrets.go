package sandbox

import (
	"fmt"
	"os"
	"strings"
)

// readSummary is the summary's clause on the secrets and the environment.
func (s Status) readSummary() string {
	there := s.existingSecrets()
	line := fmt.Sprintf("%s unreadable", plural(len(there), "secret path"))
	if len(s.Spec.AllowRead) > 0 {
		line += fmt.Sprintf(" (%d given back)", len(s.Spec.AllowRead))
	}
	return line + fmt.Sprintf(", %s kept from commands", plural(len(s.DroppedEnv), "variable"))
}

// existingSecrets are the denied paths that exist here: the ones there is
// something to keep; the others are hidden too, should they appear.
func (s Status) existingSecrets() []string {
	var out []string
	for _, p := range s.Spec.DenyRead {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// readLines are the report's lines on the secrets, what is given back,
// what cannot be kept, and the variables commands go without (names only,
// never a value).
func (s Status) readLines() []string {
	there := s.existingSecrets()
	var lines []string
	for _, p := range there {
		lines = append(lines, "unreadable: "+p)
	}
	if rest := len(s.Spec.DenyRead) - len(there); rest > 0 {
		lines = append(lines, fmt.Sprintf("unreadable: %s, not there yet, hidden should one appear (%s)", plural(rest, "more secret path"), DenyReadKey))
	}
	for _, p := range s.Spec.AllowRead {
		lines = append(lines, "readable again: "+p+" ("+AllowReadKey+")")
	}
	for _, u := range s.Spec.Unreadable {
		lines = append(lines, fmt.Sprintf("NOT unreadable: %s (%s)", u.Path, u.Why))
	}
	if s.Spec.Home != "" {
		lines = append(lines, "unreadable: "+s.Spec.Home+" (wisp's home, inside a writable root too: commands reach its outputs and threads only through wisp)")
	}
	return append(lines, s.envLine())
}

func (s Status) envLine() string {
	if len(s.DroppedEnv) == 0 {
		return "environment: commands get wisp's whole environment: none of its variables matches " + EnvironmentKey + "'s patterns"
	}
	return "environment: commands go without " + strings.Join(s.DroppedEnv, ", ") + " (" + EnvironmentKey + "; names only)"
}

// readGaps are what is left of the secrets in every mode: Landlock guards
// reading a file and listing a folder's entries by its rules, but a
// listing right granted at / reaches every folder, and no right covers a
// stat or a watch. The namespace's cover of a secret folder keeps its top
// names (stand-ins), and covers no secret that is a file, whose folder's
// watch sees it read.
func readGaps() []string {
	return []string{
		"a command can list the names at the top of a secret folder, see a secret file's size and times (~/.netrc), and, watching the folder that holds a secret (inotify, fanotify), see when it is opened or read (Landlock cannot take the listing of one folder back from /, and has no right for stat or a watch); it cannot read them",
		"a secret reached by another mount of the same files (your home bound elsewhere), or by a hard link made outside the sandbox, reads by that other path",
	}
}
