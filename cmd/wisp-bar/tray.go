//go:build !darwin || cgo

package main

import (
	"sync"
	"sync/atomic"

	"fyne.io/systray"

	"github.com/wisp-sh/wisp/internal/bar"
)

// tray shows bar's menus with fyne.io/systray. A menu of the same shape as
// the last (the same items, keys and submenus) is updated in place; any
// other is rebuilt, since systray can only append items and a new request
// must appear first.
type tray struct {
	click   func(key string)
	stopped atomic.Bool
	// up is closed once the item is on the bus and shows its first menu.
	up     chan struct{}
	upOnce sync.Once

	mu    sync.Mutex
	nodes []*trayNode
	last  *bar.Menu
}

// trayNode is one item shown; item is nil for a separator.
type trayNode struct {
	item     *systray.MenuItem
	spec     bar.Item
	children []*trayNode
}

func newTray() *tray { return &tray{up: make(chan struct{})} }

// SetMenu shows m, until stop.
func (t *tray) SetMenu(m bar.Menu) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped.Load() {
		return
	}
	defer survive()
	defer t.upOnce.Do(func() { close(t.up) })
	t.setHeader(m)
	if t.last != nil && sameShape(t.last.Items, m.Items) {
		update(t.nodes, m.Items)
	} else {
		systray.ResetMenu()
		t.nodes = t.add(nil, m.Items)
	}
	t.last = &m
}

// rebuild shows the last menu again from scratch, icon and title included:
// a tray host that just appeared reads it whole.
func (t *tray) rebuild() {
	t.mu.Lock()
	last := t.last
	t.last = nil
	t.mu.Unlock()
	if last != nil {
		t.SetMenu(*last)
	}
}

// stop ends the menu's updates: systray is going away. Where it can, it
// waits for an update in progress.
func (t *tray) stop() {
	if !stopWaitsForMenu {
		t.stopped.Store(true)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped.Store(true)
}

// setHeader sets the icon (with the count in it), the title and tooltip.
func (t *tray) setHeader(m bar.Menu) {
	if t.last == nil || t.last.Count != m.Count {
		systray.SetIcon(bar.Icon(m.Count))
	}
	if t.last == nil || trayTitle(*t.last) != trayTitle(m) {
		systray.SetTitle(trayTitle(m))
	}
	if t.last == nil || t.last.Tooltip != m.Tooltip {
		systray.SetTooltip(m.Tooltip)
	}
}

func (t *tray) add(parent *systray.MenuItem, items []bar.Item) []*trayNode {
	nodes := make([]*trayNode, 0, len(items))
	for _, it := range items {
		n := &trayNode{spec: it}
		nodes = append(nodes, n)
		if it.Separator {
			addSeparator(parent)
			continue
		}
		n.item = newItem(parent, it)
		n.children = t.add(n.item, it.Children)
		if it.Key != "" {
			go t.forward(n.item.ClickedCh, it.Key)
		}
	}
	return nodes
}

func addSeparator(parent *systray.MenuItem) {
	if parent == nil {
		systray.AddSeparator()
		return
	}
	parent.AddSeparator()
}

func newItem(parent *systray.MenuItem, it bar.Item) *systray.MenuItem {
	label := menuLabel(it.Label)
	var item *systray.MenuItem
	switch {
	case parent == nil && it.Checkbox:
		item = systray.AddMenuItemCheckbox(label, it.Tooltip, it.Checked)
	case parent == nil:
		item = systray.AddMenuItem(label, it.Tooltip)
	case it.Checkbox:
		item = parent.AddSubMenuItemCheckbox(label, it.Tooltip, it.Checked)
	default:
		item = parent.AddSubMenuItem(label, it.Tooltip)
	}
	if it.Disabled {
		item.Disable()
	}
	return item
}

// forward passes the item's clicks to the bar until the item is removed,
// which closes its channel.
func (t *tray) forward(clicked <-chan struct{}, key string) {
	for range clicked {
		t.click(key)
	}
}

// update changes the items shown to match items, of the same shape.
func update(nodes []*trayNode, items []bar.Item) {
	for i, n := range nodes {
		it := items[i]
		if n.item != nil {
			updateItem(n.item, n.spec, it)
		}
		n.spec = it
		update(n.children, it.Children)
	}
}

func updateItem(item *systray.MenuItem, old, now bar.Item) {
	if old.Label != now.Label {
		item.SetTitle(menuLabel(now.Label))
	}
	if old.Tooltip != now.Tooltip {
		item.SetTooltip(now.Tooltip)
	}
	if old.Disabled != now.Disabled {
		if now.Disabled {
			item.Disable()
		} else {
			item.Enable()
		}
	}
	if old.Checked != now.Checked {
		if now.Checked {
			item.Check()
		} else {
			item.Uncheck()
		}
	}
}

// sameShape reports whether b can be shown by updating a in place.
func sameShape(a, b []bar.Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Separator != b[i].Separator || a[i].Checkbox != b[i].Checkbox || !sameShape(a[i].Children, b[i].Children) {
			return false
		}
	}
	return true
}
