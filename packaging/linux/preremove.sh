#!/bin/sh
# The .deb's prerm: on removal (not on an upgrade, which keeps it) unload
# and remove the AppArmor profile that the postinst installed, if it did.
set -e
case "$1" in
remove | deconfigure)
	sh /usr/share/wisp/apparmor.sh unload
	;;
esac
exit 0
