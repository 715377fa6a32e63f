#!/bin/sh
# The .deb's postinst: where AppArmor restricts unprivileged user
# namespaces, install and load wisp's profile (apparmor.sh says what it
# did). A profile that does not load leaves the install in place: wisp
# still runs, and `wisp doctor` says what is then not protected, and how to
# load it.
set -e
case "$1" in
configure)
	sh /usr/share/wisp/apparmor.sh load /usr/share/wisp/apparmor.d/wisp ||
		echo "wisp: the AppArmor profile is not loaded; wisp doctor says what that leaves unprotected" >&2
	;;
esac
exit 0
