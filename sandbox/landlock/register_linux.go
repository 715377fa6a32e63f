package landlock

import (
	"runtime"

	"github.com/wisp-sh/wisp/sandbox"
)

func init() {
	sandbox.Register(Detect)
	sandbox.RegisterHelper(HelperMain)
	if sandbox.StartedAsHelper() {
		// Init runs on the process's first thread, and a lock taken here
		// makes main run on it too: the helper confines that thread, the
		// one a command's kill $PPID reaches. Taken later, in main, the
		// lock may hold another thread, in a sibling Landlock domain that
		// the command's signals cannot reach, and a command could then stop
		// its helper or not by chance. Only the helper pays for the lock.
		runtime.LockOSThread()
	}
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
