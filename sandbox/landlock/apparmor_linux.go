package landlock

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/sandbox"
)

// Where AppArmor restricts unprivileged user namespaces (Ubuntu 23.10 and
// later, kernel.apparmor_restrict_unprivileged_userns = 1), a process that
// is not root and runs under no profile granting `userns` gets none it can
// mount in, so the helper has no mount namespace and what only a read-only
// bind protects is not protected. wisp's AppArmor profile
// (packaging/linux/apparmor.d/wisp, installed as /etc/apparmor.d/wisp)
// grants wisp, and only wisp, that right; nothing here ever asks for the
// sysctl to be turned off for the whole machine.
const (
	restrictUsernsSysctl = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
	apparmorEnabledFile  = "/sys/module/apparmor/parameters/enabled"
	apparmorProfilesFile = "/sys/kernel/security/apparmor/profiles"
	// AppArmorProfileFile is where wisp's profile is installed and loaded from.
	AppArmorProfileFile = "/etc/apparmor.d/wisp"
	appArmorProfileName = "wisp"
	// noNamespaceWhy begins the reason Check gives a path that only a
	// mount namespace would protect (Landlock.cannotCover).
	noNamespaceWhy = "no mount namespace can be had here"
)

// UsernsRestriction is what AppArmor does here to the user namespaces
// wisp's helper makes, for `wisp doctor`.
type UsernsRestriction struct {
	// Restricted is true when AppArmor keeps an unprivileged process from
	// using user namespaces unless a profile grants them.
	Restricted bool
	// How says how that is known: the sysctl, or a failed probe while
	// AppArmor is enabled.
	How string
	// Enabled is true when AppArmor is enabled in the kernel.
	Enabled bool
	// Label is this process's AppArmor label ("unconfined", "wisp
	// (unconfined)"), or "" where none can be read.
	Label string
	// ProfileLoaded is true when a profile named wisp is loaded.
	ProfileLoaded bool
}

// DetectUsernsRestriction finds out whether AppArmor restricts user
// namespaces here: by the sysctl where the kernel has it, or else by the
// helper's failed namespace probe in st (an unprivileged one, while
// AppArmor is enabled).
func DetectUsernsRestriction(st sandbox.Status) UsernsRestriction {
	r := UsernsRestriction{
		Enabled:       strings.TrimSpace(readKernelFile(apparmorEnabledFile)) == "Y",
		Label:         apparmorLabel(),
		ProfileLoaded: profileLoaded(apparmorProfilesFile, appArmorProfileName),
	}
	switch strings.TrimSpace(readKernelFile(restrictUsernsSysctl)) {
	case "1":
		r.Restricted, r.How = true, "kernel.apparmor_restrict_unprivileged_userns is 1"
	case "0":
	default:
		if r.Enabled && os.Geteuid() != 0 && st.Landlock != nil && st.Namespace == sandbox.NamespaceNone {
			r.Restricted, r.How = true, "AppArmor is enabled and the helper could make no user namespace: "+st.NamespaceWhy
		}
	}
	return r
}

// UnderProfile reports whether this process runs under wisp's profile.
func (r UsernsRestriction) UnderProfile() bool {
	return r.Label == appArmorProfileName || strings.HasPrefix(r.Label, appArmorProfileName+" (")
}

// Doctor is `wisp doctor`'s apparmor line for st, with exe the wisp whose
// helper runs the commands: what AppArmor leaves unprotected here, or an
// error that names it and gives the one fix, which touches only wisp.
func (r UsernsRestriction) Doctor(st sandbox.Status, exe string) (string, error) {
	switch {
	case !r.Enabled && !r.Restricted:
		return "not enabled here, so it restricts no user namespace of wisp's", nil
	case !r.Restricted:
		return "enabled; it does not restrict unprivileged user namespaces here", nil
	case st.Namespace == sandbox.NamespaceMount || st.Namespace == sandbox.NamespaceUser:
		return fmt.Sprintf("restricts unprivileged user namespaces here (%s), and wisp's helper still has its %s namespace%s", r.How, st.Namespace, r.why()), nil
	case r.UnderProfile(): // the profile is in force: what keeps the namespace away is not AppArmor
		return fmt.Sprintf("restricts unprivileged user namespaces here (%s), and wisp runs under its profile, which grants them; the helper has none for another reason (see the sandbox line)", r.How), nil
	}
	return "", fmt.Errorf("AppArmor restricts unprivileged user namespaces here (%s), and %s, so wisp's helper can make no mount namespace: %s; fix, for wisp alone (never the sysctl): %s",
		r.How, r.missing(exe), strings.Join(namespaceUnprotected(st), "; "), AppArmorFix(exe))
}

func (r UsernsRestriction) why() string {
	switch {
	case r.UnderProfile():
		return ": wisp runs under its AppArmor profile, which grants it"
	case os.Geteuid() == 0:
		return ": the restriction is not for root"
	}
	return ""
}

// missing says why the profile does not help: not loaded, or loaded for
// another path than this wisp's.
func (r UsernsRestriction) missing(exe string) string {
	if r.ProfileLoaded {
		return fmt.Sprintf("wisp's AppArmor profile is loaded but does not cover this wisp (%s runs as %q): it attaches to another path", exe, r.Label)
	}
	return "wisp's AppArmor profile is not loaded (" + AppArmorProfileFile + ")"
}

// namespaceUnprotected lists what does not hold for want of the namespace.
func namespaceUnprotected(st sandbox.Status) []string {
	var out []string
	var paths []string
	for _, u := range st.Spec.Unprotected {
		if strings.HasPrefix(u.Why, noNamespaceWhy) { // not those missing or links: a namespace would not help
			paths = append(paths, u.Path)
		}
	}
	if len(paths) > 0 {
		out = append(out, "NOT protected: "+strings.Join(paths, ", ")+" (inside the writable roots, a confined command can write them)")
	}
	out = append(out, st.NamespaceGaps()...)
	out = append(out, st.ProcessGaps()...)
	return append(out, "wisp refuses to launch where a writable root would hold its home")
}

// AppArmorFix is the one command that lets exe make its user namespaces:
// install wisp's profile for exe and load it. It uses the copy that make
// install or the .deb put beside wisp (PREFIX/share/wisp/apparmor.d/wisp)
// where there is one, and otherwise writes the same profile for exe.
func AppArmorFix(exe string) string {
	load := "sudo apparmor_parser -r " + AppArmorProfileFile
	copyPath := filepath.Join(filepath.Dir(filepath.Dir(exe)), "share", "wisp", "apparmor.d", "wisp")
	if data, err := os.ReadFile(copyPath); err == nil && attachesTo(string(data), exe) {
		return "sudo install -m 0644 " + shellQuote(copyPath) + " " + AppArmorProfileFile + " && " + load
	}
	format := strings.NewReplacer(`\`, `\\`, "%", "%%", "\n", `\n`).Replace(AppArmorProfile(exe))
	return "printf " + shellQuote(format) + " | sudo tee " + AppArmorProfileFile + " >/dev/null && " + load
}

// AppArmorProfile is wisp's AppArmor profile for the wisp at exe and for
// wisp-agent and the helper wisp-sandbox beside it (which need not exist):
// the rules of packaging/linux/apparmor.d/wisp (a test keeps the two the
// same), the way Ubuntu's profiles for bubblewrap-based programs grant userns.
func AppArmorProfile(exe string) string {
	dir := filepath.Dir(exe)
	return "abi <abi/4.0>,\ninclude <tunables/global>\n" + apparmorUserns("wisp", exe) +
		apparmorUserns("wisp-agent", filepath.Join(dir, "wisp-agent")) + apparmorUserns("wisp-sandbox", filepath.Join(dir, "wisp-sandbox"))
}

func apparmorUserns(name, path string) string {
	return "profile " + name + " " + apparmorPath(path) + " flags=(unconfined) {\n  userns,\n  include if exists <local/" + name + ">\n}\n"
}

// apparmorPath quotes a path that holds characters AppArmor's syntax gives
// a meaning to; the profile matches the path literally either way only
// when it holds no glob characters, which wisp's own paths do not.
func apparmorPath(p string) string {
	if strings.ContainsAny(p, " \t\"#,{}[]*?^") {
		return `"` + strings.ReplaceAll(p, `"`, `\"`) + `"`
	}
	return p
}

func attachesTo(profile, exe string) bool {
	return strings.Contains(profile, "profile wisp "+apparmorPath(exe)+" ") ||
		strings.Contains(profile, `profile wisp "`+exe+`" `)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// apparmorLabel is this process's AppArmor label, from the interface of
// kernels 5.8 and later or the older shared one.
func apparmorLabel() string {
	for _, p := range []string{"/proc/self/attr/apparmor/current", "/proc/self/attr/current"} {
		if s := strings.TrimSpace(strings.TrimRight(readKernelFile(p), "\x00")); s != "" {
			return s
		}
	}
	return ""
}

// profileLoaded reports whether the profiles file (one "NAME (MODE)" a
// line) lists name.
func profileLoaded(file, name string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), name+" (") {
			return true
		}
	}
	return false
}

// readKernelFile reads a small kernel file, or "" when it cannot.
func readKernelFile(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(data)
}
