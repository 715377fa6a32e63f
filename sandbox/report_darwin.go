package sandbox

// describeBackend adds whether wisp is nested in another sandbox.
func describeBackend(st *Status, _ Backend) { st.Nested = Nested() }
