//go:build !linux

package checkpoint

import "errors"

// watcher is Linux's inotify; elsewhere (FSEvents on a Mac would be the
// counterpart) every checkpoint walks all of its roots.
type watcher struct{}

func newWatcher() (*watcher, error) { return nil, errors.New("no folder watcher on this system") }

func (w *watcher) add(dirfd int, path string) {}
func (w *watcher) drain()                     {}
func (w *watcher) changes(root string) (dirty, full map[string]bool, ok bool) {
	return nil, nil, false
}
func (w *watcher) reset() {}
func (w *watcher) close() {}

func localFS(dir string) bool { return false }
