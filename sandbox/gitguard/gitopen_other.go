//go:build !unix

package gitguard

import "os"

// openNoFollow opens path for reading; the caller has checked with Lstat
// that it is a regular file.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }
