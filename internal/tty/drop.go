package tty

import "os"

// DropInput discards what was typed on the terminal f and not yet read:
// keys typed before a question showed are never its answer.
func DropInput(f *os.File) error {
	var err error
	if cerr := Control(f, func(fd int) { err = flushInput(fd) }); cerr != nil {
		return cerr
	}
	return err
}

// Queued is how many bytes were typed on f and not yet read: a test
// knows its keys reached wisp's side, and whether wisp read them.
func Queued(f *os.File) (int, error) {
	var n int
	var err error
	if cerr := Control(f, func(fd int) { n, err = queued(fd) }); cerr != nil {
		return 0, cerr
	}
	return n, err
}
