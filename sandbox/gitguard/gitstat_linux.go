package gitguard

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// changeTime is the inode's change time, which a command cannot set: any
// write, chmod or rename moves it.
func changeTime(info fs.FileInfo) (int64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Ctim.Sec*1e9 + st.Ctim.Nsec, true
}

func devIno(info fs.FileInfo) (uint64, uint64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return uint64(st.Dev), st.Ino
}

// processStart is when pid started, in clock ticks since this boot, with
// the boot's id, or "" when that cannot be read.
func processStart(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command's name, in parentheses, may hold spaces: the fields
	// after it start with the third, and the start time is the 22nd.
	i := bytes.LastIndexByte(data, ')')
	fields := strings.Fields(string(data[i+1:]))
	if i < 0 || len(fields) < 20 {
		return ""
	}
	return bootID() + "/" + fields[19]
}

var bootID = sync.OnceValue(func() string {
	id, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return strings.TrimSpace(string(id))
})
