package sandbox

// Detect returns the Landlock backend, with exe (wisp's own executable) as
// its helper, or an *UnavailableError saying why the kernel offers none.
func Detect(exe string) (Backend, error) {
	l, err := NewLandlock(exe, NamespaceAuto)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Nested is false on Linux: Landlock domains stack, so wisp inside another
// Landlock sandbox still confines its commands further.
func Nested() bool { return false }
