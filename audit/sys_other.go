//go:build !unix

package audit

import (
	"errors"
	"os"
)

// ErrUnsupported says this system lacks what the audit log's guarantees
// rest on (flock and a single append write).
var ErrUnsupported = errors.New("the audit log needs a unix system (flock, O_APPEND writes)")

func lockFile(string, bool) (func(), error) { return nil, ErrUnsupported }

func appendLine(*os.File, []byte) error { return ErrUnsupported }
