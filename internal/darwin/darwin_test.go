//go:build !darwin || !cgo

package darwin

import (
	"errors"
	"testing"
)

// Off macOS every call refuses by name; none pretends to have shown anything.
func TestEveryCallSaysUnsupported(t *testing.T) {
	if _, err := Start(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Start: %v", err)
	}
	n := &Notifier{}
	for name, err := range map[string]error{
		"Show":                     n.Show("0123456789abcdef", "t", "b", BothButtons),
		"Withdraw":                 n.Withdraw("0123456789abcdef"),
		"WithdrawAll":              n.WithdrawAll(),
		"DismissAlert":             DismissAlert("0123456789abcdef"),
		"Alert":                    Alert("0123456789abcdef", "t", "x", true),
		"OpenFile":                 OpenFile("/etc/hosts"),
		"OpenNotificationSettings": OpenNotificationSettings(),
	} {
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	if BundleID() != "" || Events() != nil || Reports() != nil {
		t.Error("a bundle or an event source where there is none")
	}
}
