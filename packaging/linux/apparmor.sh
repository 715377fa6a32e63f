#!/bin/sh
# apparmor.sh: wisp's AppArmor profile, where AppArmor restricts
# unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns
# is 1: Ubuntu 23.10 and later). The .deb's maintainer scripts and
# `make install` / `make uninstall` run as root use it. It never changes the
# sysctl: the profile lets wisp, and only wisp, make user namespaces.
#
#   apparmor.sh restricted       exit 0 when AppArmor restricts them here
#   apparmor.sh load PROFILE     where it does, install PROFILE as
#                                /etc/apparmor.d/wisp and load it
#   apparmor.sh unload           unload and remove /etc/apparmor.d/wisp
set -eu

dest=/etc/apparmor.d/wisp
sysctl=/proc/sys/kernel/apparmor_restrict_unprivileged_userns

restricted() {
	[ "$(cat "$sysctl" 2>/dev/null || true)" = 1 ]
}

load() {
	if ! restricted; then
		echo "wisp: AppArmor does not restrict unprivileged user namespaces here, so wisp needs no AppArmor profile"
		return 0
	fi
	if ! command -v apparmor_parser >/dev/null 2>&1; then
		echo "wisp: AppArmor restricts unprivileged user namespaces here, but apparmor_parser is missing to load wisp's profile (install the apparmor package)" >&2
		return 1
	fi
	install -m 0644 "$1" "$dest"
	apparmor_parser -r "$dest"
	echo "wisp: installed and loaded the AppArmor profile $dest: AppArmor restricts unprivileged user namespaces here, and the profile lets wisp make the ones its sandbox needs"
}

unload() {
	[ -f "$dest" ] || return 0
	if command -v apparmor_parser >/dev/null 2>&1; then
		apparmor_parser -R "$dest" 2>/dev/null || true # not loaded: nothing to unload
	fi
	rm -f "$dest"
	echo "wisp: unloaded and removed the AppArmor profile $dest"
}

case ${1:-} in
restricted) restricted ;;
load) load "${2:?apparmor.sh load needs the profile to install}" ;;
unload) unload ;;
*) echo "usage: apparmor.sh restricted | load PROFILE | unload" >&2; exit 2 ;;
esac
