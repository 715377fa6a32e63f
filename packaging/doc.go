// Package packaging holds no code: its tests are those of how wisp is
// installed, from the files beside them (linux/: the AppArmor profile,
// the .deb's scripts and nfpm config, the autostart entry; macos/) and the
// Makefile's install and uninstall (scripts/install.sh): that make install
// and make uninstall as a person leave nothing behind, and that
// apparmor_parser takes the profile. `make deb-check` (scripts/deb-check.sh)
// builds and inspects the .deb.
package packaging
