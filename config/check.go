package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// CheckHome says whether the home is as wisp needs it: a directory, mode
// 0700, owned by uid. The error says what is wrong and how to fix it.
func (h Home) Check(uid int) error {
	info, err := os.Lstat(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s does not exist yet; wisp creates it (0700) on first use", h.Dir)
	}
	if err != nil {
		return fmt.Errorf("cannot inspect %s: %w", h.Dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory; move it away so wisp can create its home there", h.Dir)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d); run: chown -R %d %s", h.Dir, st.Uid, uid, uid, h.Dir)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		return fmt.Errorf("%s has mode %04o, so others may read or change wisp's approvals; run: chmod 700 %s", h.Dir, perm, h.Dir)
	}
	return nil
}
