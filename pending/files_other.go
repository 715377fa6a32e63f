//go:build !unix

package pending

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
)

func openNoFollow(path string) (*os.File, error) {
	return nil, fmt.Errorf("%w (%s): files cannot be opened without following links", ErrUnsupported, runtime.GOOS)
}

func ownedBySelf(info fs.FileInfo) error {
	return fmt.Errorf("%w (%s): file owners cannot be checked", ErrUnsupported, runtime.GOOS)
}
