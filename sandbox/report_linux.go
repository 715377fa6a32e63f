package sandbox

// describeBackend adds what Landlock enforces here and which namespace the
// helper gets: every command has one where it can be had, for the
// read-only view of what lies outside the roots.
func describeBackend(st *Status, b Backend) {
	l, ok := b.(*Landlock)
	if !ok {
		return
	}
	f := l.Features()
	st.Landlock = &f
	st.Namespace, st.NamespaceWhy = l.Namespace()
}
