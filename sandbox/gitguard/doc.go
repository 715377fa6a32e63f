// Package gitguard keeps a confined command from planting what git would
// run later, outside the sandbox, for the person: hooks, a core.fsmonitor
// or alias in a config, a .git pointer to a folder of the command's own.
//
// Protected walks a repository for the paths the backends must keep
// unwritable (walk.go); Scope.Snapshot records git's control files under
// the roots before a command and Snapshot.PutBack puts them back after it
// (gitguard.go), sharing one baseline with other wisps on the same roots
// (gitbaseline*.go). gitconfig.go reads and writes git's config format.
package gitguard
