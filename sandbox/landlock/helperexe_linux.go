package landlock

import (
	"errors"

	"github.com/wisp-sh/wisp/sandbox"
)

// helperBeside returns the helper to run for wisp's executable exe (its
// real path): wisp-sandbox in the same folder when there is one and it may
// be trusted, or exe itself when there is none. A file there that may not
// be trusted (a link, writable by others, another owner's) is refused
// rather than passed over: something has tampered with the installation,
// and the person should know.
func helperBeside(exe string) (string, error) {
	p, err := sandbox.TrustedBeside(exe, sandbox.HelperExecutable)
	var untrusted *sandbox.UntrustedExecutableError
	switch {
	case errors.As(err, &untrusted):
		return "", &sandbox.UnavailableError{Why: untrusted.Error() + ", so it cannot be trusted to confine commands", Fix: untrusted.Hint()}
	case err != nil:
		return "", err
	case p == "":
		return exe, nil
	}
	return p, nil
}
