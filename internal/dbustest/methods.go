package dbustest

import (
	"slices"

	"github.com/godbus/dbus/v5"
)

// serverMethods is what NotificationServer exports on the bus, kept apart so
// that the server's test-facing methods are not callable over D-Bus.
type serverMethods struct{ s *NotificationServer }

func (m serverMethods) Notify(sender dbus.Sender, appName string, replacesID uint32, icon, summary, body string,
	actions []string, hints map[string]dbus.Variant, expireTimeout int32) (uint32, *dbus.Error) {
	m.s.sendClosing()
	return m.s.record(Recorded{
		Sender: string(sender), AppName: appName, ReplacesID: replacesID, Icon: icon,
		Summary: summary, Body: body, Actions: actions, Hints: hints, ExpireTimeout: expireTimeout,
	}), nil
}

func (m serverMethods) CloseNotification(id uint32) *dbus.Error {
	m.s.closeRequested(id)
	return nil
}

func (m serverMethods) GetCapabilities() ([]string, *dbus.Error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return slices.Clone(m.s.caps), nil
}

func (m serverMethods) GetServerInformation() (name, vendor, version, specVersion string, err *dbus.Error) {
	m.s.mu.Lock()
	defer m.s.mu.Unlock()
	return m.s.name, "wisp", m.s.version, "1.2", nil
}
