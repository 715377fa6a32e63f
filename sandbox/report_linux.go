package sandbox

// describeBackend adds what Landlock enforces here and which namespace the
// helper gets, probing for it only when a protected path lies in a root.
func describeBackend(st *Status, b Backend) {
	l, ok := b.(*Landlock)
	if !ok {
		return
	}
	f := l.Features()
	st.Landlock = &f
	if len(l.protectedInRoots(st.Spec)) > 0 {
		st.Namespace, st.NamespaceWhy = l.Namespace()
	}
}
