package landlock

import "github.com/wisp-sh/wisp/sandbox"

// Describe adds what Landlock enforces here and which namespace the
// helper gets: every command has one where it can be had, for the
// read-only view of what lies outside the roots.
func (l *Landlock) Describe(st *sandbox.Status) {
	f := l.Features()
	st.Landlock = &f
	st.Namespace, st.NamespaceWhy = l.Namespace()
}
