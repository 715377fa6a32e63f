package approval

import (
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/policy"
)

// isPrefix reports whether a held entry is a prefix ("go test …").
func isPrefix(entry string) bool { return strings.HasSuffix(entry, policy.PrefixMark) }

// PrefixEntry is how a prefix is held and shown: its words and the mark.
func PrefixEntry(prefix string) string { return prefix + policy.PrefixMark }

// OfferedPrefixes are the prefixes a dialog may offer to hold for line:
// one for each command that asks (at or above threshold), when every such
// command can be held by one and the rules on the whole line ask no more
// than those commands. None when any of that fails: a held prefix would
// then not spare the next dialog, and offering it would mislead.
func OfferedPrefixes(line string, threshold policy.Level) []string {
	cmds, ok := askingCommands(line, threshold)
	if !ok {
		return nil
	}
	var out []string
	for _, c := range cmds {
		if c.Prefix == "" {
			return nil
		}
		if e := PrefixEntry(c.Prefix); !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// coversByPrefix reports the scope under which held prefixes and lines
// cover line: every command at or above threshold is held (as its own
// exact text, or by a prefix), and the rules on the whole line
// (redirections, $( ), pipes into an interpreter) add nothing above the
// commands so held. The narrowest scope used is the one reported.
func coversByPrefix(line string, threshold policy.Level, held func(entry string) Scope) Scope {
	cmds, ok := askingCommands(line, threshold)
	if !ok {
		return ""
	}
	scope := Always
	for _, c := range cmds {
		s := heldFor(c, held)
		if s == "" {
			return ""
		}
		scope = narrower(scope, s)
	}
	return scope
}

// askingCommands are line's commands at or above threshold. ok is false
// when none asks, when the line cannot be read, or when the rules on the
// whole line ask more than the least of those commands, which a prefix
// of them could then never hold.
func askingCommands(line string, threshold policy.Level) ([]policy.Command, bool) {
	lc, err := policy.LineCommands(line)
	if err != nil {
		return nil, false
	}
	var asking []policy.Command
	lowest := policy.High + 1
	for _, c := range lc.Commands {
		if c.Level >= threshold {
			asking = append(asking, c)
			lowest = min(lowest, c.Level)
		}
	}
	if len(asking) == 0 || lc.Rules >= threshold && lc.Rules > lowest {
		return nil, false
	}
	return asking, true
}

// heldFor is the scope that holds one command: its exact text, or the
// longest of its word prefixes that is held.
func heldFor(c policy.Command, held func(string) Scope) Scope {
	if s := held(c.Text); s != "" {
		return s
	}
	for n := len(c.Words); n > 0; n-- {
		prefix := strings.Join(c.Words[:n], " ")
		if s := held(PrefixEntry(prefix)); s != "" && policy.HoldsCommand(prefix, c) {
			return s
		}
	}
	return ""
}

func narrower(a, b Scope) Scope {
	if slices.Index(AllScopes, b) < slices.Index(AllScopes, a) {
		return b
	}
	return a
}
