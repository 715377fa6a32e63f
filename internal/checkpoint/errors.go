package checkpoint

import (
	"fmt"
	"strings"
)

// ReadError is a file or folder of a root that a checkpoint could not
// read: the checkpoint is not taken, rather than taken without it.
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string {
	return fmt.Sprintf("cannot read %s (%v): make it readable, or leave it out of checkpoints with a .gitignore entry", e.Path, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// CapError is a root whose recorded files are larger than the cap, or
// that holds more entries than a walk looks at (Entries set: the walk
// stopped there, so Size is what it had found by then).
type CapError struct {
	Root      string
	Size, Cap int64
	// Entries is the entry cap the walk stopped at, 0 when the bytes
	// were over theirs.
	Entries int
}

func (e *CapError) Error() string {
	if e.Entries > 0 {
		return fmt.Sprintf("%s holds more than %d files and folders that a checkpoint would record, too many to walk before each turn: start wisp in the project's own folder, or leave large folders out with .gitignore entries",
			e.Root, e.Entries)
	}
	return fmt.Sprintf("%s holds %s of files that a checkpoint would record, over the cap of %s: leave large folders out with .gitignore entries, or raise the cap (checkpoints.maxRootSize)",
		e.Root, formatBytes(e.Size), formatBytes(e.Cap))
}

// ConflictError is a restore refused because files were changed by hand
// since the turn: Restore lists them, and overwrites them only when asked.
type ConflictError struct {
	Conflicts []Change
}

func (e *ConflictError) Error() string {
	var paths []string
	for i, c := range e.Conflicts {
		if i == 5 {
			paths = append(paths, fmt.Sprintf("and %d more", len(e.Conflicts)-i))
			break
		}
		paths = append(paths, c.Path)
	}
	return fmt.Sprintf("%d files changed since the checkpoint after the turn, by hand or by another program (%s): keep them or overwrite them", len(e.Conflicts), strings.Join(paths, ", "))
}

// formatBytes writes n for a person: 2.1 GB, 340 kB, 12 B.
func formatBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}
