package main

import (
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// What a tray host sees of wisp-bar on the session bus.
const (
	menuPath  = dbus.ObjectPath("/StatusNotifierItem/menu")
	menuIface = "com.canonical.dbusmenu"
)

// entry is one menu item as dbusmenu describes it.
type entry struct {
	ID       int32
	Label    string // as shown: dbusmenu's "__" read back as "_"
	Raw      string // as sent
	Enabled  bool
	Toggle   string
	Checked  bool
	Children []entry
}

type layout struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// trayClient reads and clicks wisp-bar's tray as a tray host does.
type trayClient struct {
	conn *dbus.Conn
	dest string
}

// menu reads the whole menu, as a host has it once the updates settle.
// systray answers the first GetLayout after a rebuild one level deep (for
// libdbusmenu-gtk's sake), and a rebuild adds one item at a time, Quit
// last; so it asks until two answers in a row have the same revision and
// end with Quit: that menu is whole.
func (c trayClient) menu(t *testing.T) []entry {
	t.Helper()
	prev := ^uint32(0)
	deadline := time.Now().Add(guard)
	for time.Now().Before(deadline) {
		var rev uint32
		var root layout
		err := c.conn.Object(c.dest, menuPath).Call(menuIface+".GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root)
		if err != nil {
			t.Fatalf("GetLayout: %v", err)
		}
		m := children(root.Children)
		if rev == prev && len(m) > 0 && m[len(m)-1].Label == "Quit" {
			return m
		}
		prev = rev
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the menu never settled under GetLayout")
	return nil
}

func children(vs []dbus.Variant) []entry {
	var out []entry
	for _, v := range vs {
		fields, ok := v.Value().([]any)
		if !ok || len(fields) != 3 {
			continue
		}
		props, _ := fields[1].(map[string]dbus.Variant)
		kids, _ := fields[2].([]dbus.Variant)
		e := entry{ID: fields[0].(int32), Enabled: true, Children: children(kids)}
		if p, ok := props["label"]; ok {
			e.Raw, _ = p.Value().(string)
			e.Label = strings.ReplaceAll(e.Raw, "__", "_")
		}
		if p, ok := props["enabled"]; ok {
			e.Enabled, _ = p.Value().(bool)
		}
		if p, ok := props["type"]; ok && p.Value() == "separator" {
			e.Label = "----"
		}
		if p, ok := props["toggle-type"]; ok {
			e.Toggle, _ = p.Value().(string)
		}
		if p, ok := props["toggle-state"]; ok {
			state, _ := p.Value().(int32)
			e.Checked = state == 1
		}
		out = append(out, e)
	}
	return out
}

// click clicks item id, as a person does in the host's menu.
func (c trayClient) click(t *testing.T, id int32) {
	t.Helper()
	err := c.conn.Object(c.dest, menuPath).Call(menuIface+".Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix())).Err
	if err != nil {
		t.Fatalf("click item %d: %v", id, err)
	}
}

func (c trayClient) property(t *testing.T, name string) any {
	t.Helper()
	v, err := c.conn.Object(c.dest, itemPath).GetProperty("org.kde.StatusNotifierItem." + name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return v.Value()
}

// waitMenu reads the menu until ok holds for it.
func (c trayClient) waitMenu(t *testing.T, what string, ok func([]entry) bool) []entry {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		m := c.menu(t)
		if ok(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tray's menu never showed %s; it shows:\n%s", what, outline(m, ""))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func outline(es []entry, indent string) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(indent + e.Label)
		if !e.Enabled {
			b.WriteString(" (disabled)")
		}
		b.WriteString("\n" + outline(e.Children, indent+"    "))
	}
	return b.String()
}

// find returns the first entry whose label starts with prefix, searching
// submenus too.
func find(es []entry, prefix string) (entry, bool) {
	for _, e := range es {
		if strings.HasPrefix(e.Label, prefix) {
			return e, true
		}
		if found, ok := find(e.Children, prefix); ok {
			return found, true
		}
	}
	return entry{}, false
}

func has(prefix string) func([]entry) bool {
	return func(m []entry) bool { _, ok := find(m, prefix); return ok }
}

func mustFind(t *testing.T, es []entry, prefix string) entry {
	t.Helper()
	e, ok := find(es, prefix)
	if !ok {
		t.Fatalf("no item %q in:\n%s", prefix, outline(es, ""))
	}
	return e
}
