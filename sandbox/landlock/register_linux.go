package landlock

import "github.com/wisp-sh/wisp/sandbox"

func init() {
	sandbox.Register(Detect)
	sandbox.RegisterHelper(HelperMain)
}

// Detect returns the Landlock backend, with exe (wisp's own executable) as
// its helper, or an *UnavailableError saying why the kernel offers none.
func Detect(exe string) (sandbox.Backend, error) {
	l, err := NewLandlock(exe, sandbox.NamespaceAuto)
	if err != nil {
		return nil, err
	}
	return l, nil
}
