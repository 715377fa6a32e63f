//go:build !linux

package landlock

import "github.com/wisp-sh/wisp/sandbox"

// AppArmorProfileFile is where wisp's profile is installed on Linux.
const AppArmorProfileFile = "/etc/apparmor.d/wisp"

// UsernsRestriction is Linux's: AppArmor and user namespaces exist only there.
type UsernsRestriction struct{}

// DetectUsernsRestriction finds nothing to detect off Linux.
func DetectUsernsRestriction(sandbox.Status) UsernsRestriction { return UsernsRestriction{} }

// Doctor says that the check is Linux's.
func (UsernsRestriction) Doctor(sandbox.Status, string) (string, error) {
	return "not on this system: AppArmor and the user namespaces it restricts are Linux's", nil
}
