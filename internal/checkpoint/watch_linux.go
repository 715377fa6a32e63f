package checkpoint

import (
	"errors"
	"strconv"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watcher tells, between two checkpoints, which folders of the roots
// changed: an inotify watch on every folder a checkpoint walked. The next
// checkpoint walks again only those folders (and the folders above them),
// and takes the rest from the checkpoint before, unread. The kernel queues
// an event in the call that makes the change, so a change made before a
// checkpoint starts is always seen by it; what the queue cannot hold
// (an overflow), a watch that cannot be added (the user's limit), or a
// change inotify does not report (a write through a shared memory map,
// another machine's write to a network file system) makes the next
// checkpoint, or every one, walk all.
type watcher struct {
	mu    sync.Mutex
	fd    int
	paths map[int32]string // watch → the folder as walked
	dirty map[string]bool  // folders whose entries changed
	full  map[string]bool  // folders to walk whole: a .gitignore or the folder itself moved
	lost  bool             // events were lost since the last reset
	off   error            // watching stopped for good
}

const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_EXCL_UNLINK

func newWatcher() (*watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return &watcher{fd: fd, paths: map[int32]string{}, dirty: map[string]bool{}, full: map[string]bool{}}, nil
}

// add watches the folder open as dirfd, found at path: the open folder
// itself, not whatever the path names by now.
func (w *watcher) add(dirfd int, path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.off != nil {
		return
	}
	wd, err := unix.InotifyAddWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(dirfd), watchMask)
	if err != nil {
		w.off = err // the user's watch limit, most likely: walk all from now on
		return
	}
	w.paths[int32(wd)] = path // a folder moved since keeps its watch, now here
}

// drain reads the events queued so far.
func (w *watcher) drain() {
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := make([]byte, 64<<10)
	for w.off == nil {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			if !errors.Is(err, unix.EAGAIN) {
				w.off = err
			}
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				for i, c := range raw {
					if c == 0 {
						raw = raw[:i]
						break
					}
				}
				name = string(raw)
			}
			w.note(ev.Wd, ev.Mask, name)
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

func (w *watcher) note(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.lost = true
		return
	}
	dir, ok := w.paths[wd]
	if !ok {
		return
	}
	switch {
	case mask&unix.IN_IGNORED != 0:
		delete(w.paths, wd)
	case name == gitignoreName:
		w.full[dir] = true
	case mask&unix.IN_ISDIR != 0 && mask&(unix.IN_MOVED_TO|unix.IN_CREATE) != 0:
		w.dirty[dir] = true
		w.full[dir+"/"+name] = true
	default:
		w.dirty[dir] = true
	}
}

// changes are the folders under root that changed since the last reset,
// relative to root; ok is false when the watcher cannot say.
func (w *watcher) changes(root string) (dirty, full map[string]bool, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.off != nil || w.lost {
		return nil, nil, false
	}
	return relUnder(w.dirty, root), relUnder(w.full, root), true
}

// reset starts a new span of changes: a walk is about to look.
func (w *watcher) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.dirty)
	clear(w.full)
	w.lost = false
}

func (w *watcher) close() { unix.Close(w.fd) }

// localFS reports whether the folder's file system is a local one, whose
// every change inotify reports; on a network or FUSE file system another
// machine, or the file system's own process, changes files unseen, and
// on an overlay so does a write to a lower layer.
func localFS(dir string) bool {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.F2FS_SUPER_MAGIC, 0x2fc12fc1 /* zfs */, unix.BCACHEFS_SUPER_MAGIC:
		return true
	}
	return false
}
