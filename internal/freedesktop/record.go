package freedesktop

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
)

// record is what a Notifier keeps on disk of the banners it shows, so that
// the next wisp-bar can close what this one left if it ends without Close.
// Notification ids mean something only to the one server, on the one bus,
// that gave them out: both are written down.
type record struct {
	Bus    string   `json:"bus"`    // the session bus's id
	Writer string   `json:"writer"` // the unique name of the Notifier's connection
	Server string   `json:"server"` // the unique name of the server that shows them
	IDs    []uint32 `json:"ids"`
}

// maxRecord bounds what is read back: a record never holds more than a few
// banners' ids.
const maxRecord = 64 << 10

// saveRecord writes the banners shown now. A record that cannot be written
// costs only the cleanup after a crash, so the error is dropped. Callers
// hold n.mu.
func (n *Notifier) saveRecord() {
	if n.record == "" {
		return
	}
	r := record{Bus: n.busID, Writer: n.conn.Names()[0], IDs: []uint32{}}
	for key := range n.byKey {
		r.Server = key.server
		r.IDs = append(r.IDs, key.id)
	}
	slices.Sort(r.IDs)
	data, err := json.Marshal(r)
	if err == nil {
		writeAtomic(n.record, data)
	}
}

// closeLeftovers closes the banners an earlier Notifier recorded, when
// they are still this server's on this bus and their writer is gone.
func (n *Notifier) closeLeftovers() {
	r, ok := readRecord(n.record)
	if !ok || r.Bus != n.busID || r.Writer == "" || n.hasOwner(r.Writer) {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), closeAllTimeout)
	defer cancel()
	for _, id := range r.IDs {
		n.closeNotification(ctx, notificationKey{server: r.Server, id: id})
	}
}

func readRecord(path string) (record, bool) {
	var r record
	if path == "" {
		return r, false
	}
	f, err := os.Open(path)
	if err != nil {
		return r, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > maxRecord {
		return r, false
	}
	return r, json.NewDecoder(f).Decode(&r) == nil
}

func (n *Notifier) hasOwner(name string) bool {
	var has bool
	err := n.conn.BusObject().Call(busName+".NameHasOwner", 0, name).Store(&has)
	return err != nil || has // in doubt, leave the banners to their writer
}

// writeAtomic replaces path with data through a temporary file in the same
// folder, fsynced and renamed, mode 0600.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
