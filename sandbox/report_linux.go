package sandbox

// Describer is a backend that adds what it enforces here to the report
// (sandbox/landlock: its features and the helper's namespace).
type Describer interface{ Describe(*Status) }

// describeBackend lets the backend describe itself.
func describeBackend(st *Status, b Backend) {
	if d, ok := b.(Describer); ok {
		d.Describe(st)
	}
}
