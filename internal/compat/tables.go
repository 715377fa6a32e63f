package main

import "regexp"

// itemTitles are issue 32's numbered items, as the report names them.
var itemTitles = map[int]string{
	1: "package managers' caches are not writable",
	2: "cargo's locks and rustup's files",
	3: "a fresh account cannot build",
	4: "Unix sockets a command makes for itself are refused",
	5: "setuid and setgid bits on a command's own files",
	6: "refusals that mention the network are dropped",
	7: "git: a put-back false alarm, a refused set-upstream-to",
	8: "ssh: known_hosts and config unreadable",
}

// known is the report-only table: failures under wisp that are issue 32's
// known items, printed on their project's line instead of failing the
// suite, so that CI stays green until each is fixed. Whoever fixes an item
// removes its entries here: the suite fails on an entry whose failure is
// no longer seen ("remove its entry"), and on any failure under wisp that
// no entry (and no trust.md passage) explains.
var known = []knownEntry{}

// trusted is the table of differences docs/trust.md names, which the suite
// accepts for good, saying which passage on the line. Issue 32's item 7
// left one: the repository's .git/config stays read-only under the
// sandbox (a setting there can run a program at the person's next git
// command), so the session's `git branch --set-upstream-to` saves nothing,
// and the note under it says why and gives the !! line.
var trusted = []trustEntry{
	{Project: "git-session", Anchor: "what-your-git-runs",
		Sentence:  "so `git submodule add`, `git remote add`, `git config`, a second `git init` and `git branch --set-upstream-to` there fail confined (the last exits 0 and prints that it worked: git ignores the refused write): run them with `!!`.",
		Signature: regexp.MustCompile(`no upstream configured for branch 'main'`)},
}
