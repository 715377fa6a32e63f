package sandbox

// Detect returns the backend a linked backend package registered
// (sandbox/landlock, with exe, wisp's own executable, as its helper), or an
// *UnavailableError saying why the kernel offers none.
func Detect(exe string) (Backend, error) {
	if len(detectors) == 0 {
		return nil, &UnavailableError{Why: "this program links no Landlock backend", Err: ErrUnavailable,
			Fix: "import github.com/wisp-sh/wisp/sandbox/landlock in the program's main package"}
	}
	return detectors[0](exe)
}

// Nested is false on Linux: Landlock domains stack, so wisp inside another
// Landlock sandbox still confines its commands further.
func Nested() bool { return false }
