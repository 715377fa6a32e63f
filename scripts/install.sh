#!/bin/sh
# install.sh: what `make install` and `make uninstall` do, after make build.
#
#   install.sh install BINARY...    bin/wisp, bin/wisp-bar, ... (the Makefile's BINARIES)
#   install.sh uninstall NAME...    wisp, wisp-bar, ... (for an install that kept no record)
#
# From the Makefile's environment: PREFIX, DESTDIR (a staged install for a
# package), and AUTOSTART_DIR, where wisp-bar's XDG autostart entry goes
# (empty: none; the Makefile leaves it empty off Linux and with DESTDIR).
#
# install writes the binaries first, so that a run that cannot (a person
# who is not root, into /usr/local) leaves nothing behind; then wisp's shell
# completions, a copy of wisp's AppArmor profile for this PREFIX, the
# autostart entry, and, where AppArmor restricts unprivileged user
# namespaces and it runs as root, the profile itself, loaded. It records
# every file and every folder it made in PREFIX/share/wisp/installed, and
# uninstall removes exactly those, so it never removes a folder that was
# there before (/usr/local/bin) nor a file it did not write.
set -eu

PREFIX=${PREFIX:?install.sh needs PREFIX}
# PREFIX=~/.local reaches here unexpanded from a shell that expands a tilde
# only at a word's start (dash, zsh): it means the home, not a folder "~".
case $PREFIX in
"~") PREFIX=$HOME ;;
"~/"*) PREFIX=$HOME/${PREFIX#"~/"} ;;
esac
DESTDIR=${DESTDIR:-}
AUTOSTART_DIR=${AUTOSTART_DIR:-}
here=$(cd "$(dirname "$0")/.." && pwd)
manifest=$PREFIX/share/wisp/installed
profile_copy=$PREFIX/share/wisp/apparmor.d/wisp
apparmor_profile=/etc/apparmor.d/wisp
apparmor_sh=$here/packaging/linux/apparmor.sh
nl='
'

# record KIND PATH: one line of the manifest being written (f a file, d a folder).
record() {
	printf '%s %s\n' "$1" "$2" >>"$new_manifest"
}

# make_dirs DIR: make DIR and whichever of its parents are missing,
# recording each one made.
make_dirs() {
	d=$1 missing=
	while [ ! -d "$DESTDIR$d" ]; do
		missing=$d$nl$missing
		d=$(dirname "$d")
	done
	printf '%s' "$missing" | while IFS= read -r m; do
		[ -n "$m" ] || continue
		mkdir "$DESTDIR$m"
		record d "$m"
	done
}

# put MODE SRC DEST: install SRC as DEST, recording it.
put() {
	make_dirs "$(dirname "$3")"
	install -m "$1" "$2" "$DESTDIR$3"
	record f "$3"
}

restricted() {
	sh "$apparmor_sh" restricted
}

install_binaries() {
	names=
	for bin in "$@"; do
		[ -x "$bin" ] || { echo "install.sh: $bin is not built: run make build first" >&2; exit 1; }
		put 0755 "$bin" "$PREFIX/bin/$(basename "$bin")"
		names="$names $(basename "$bin")"
	done
	echo "installed$names in $PREFIX/bin"
}

# install_completions WISP: cobra's scripts for bash, zsh and fish, where
# each shell looks for a program's own (under PREFIX/share).
install_completions() {
	tmp=$(mktemp -d)
	"$1" completion bash >"$tmp/wisp"
	"$1" completion zsh >"$tmp/_wisp"
	"$1" completion fish >"$tmp/wisp.fish"
	put 0644 "$tmp/wisp" "$PREFIX/share/bash-completion/completions/wisp"
	put 0644 "$tmp/_wisp" "$PREFIX/share/zsh/site-functions/_wisp"
	put 0644 "$tmp/wisp.fish" "$PREFIX/share/fish/vendor_completions.d/wisp.fish"
	rm -rf "$tmp"
	echo "installed completions for bash, zsh and fish in $PREFIX/share"
}

# install_profile_copy: wisp's AppArmor profiles for wisp, wisp-agent and
# wisp-sandbox in PREFIX/bin (the paths quoted, for a PREFIX with spaces), for the one fix
# `wisp doctor` gives where AppArmor restricts user namespaces.
install_profile_copy() {
	tmp=$(mktemp)
	sed -e "s|^profile \(wisp[a-z-]*\) /usr/bin/\(wisp[a-z-]*\) |profile \1 \"$PREFIX/bin/\2\" |" \
		"$here/packaging/linux/apparmor.d/wisp" >"$tmp"
	if grep -q '/usr/bin/' "$tmp"; then
		echo "install.sh: the AppArmor profile names /usr/bin/ where it should name $PREFIX/bin/" >&2
		exit 1
	fi
	put 0644 "$tmp" "$profile_copy"
	rm -f "$tmp"
}

install_autostart() {
	tmp=$(mktemp)
	sed "s|@BINDIR@|$PREFIX/bin|g" "$here/packaging/linux/wisp-bar.desktop" >"$tmp"
	put 0644 "$tmp" "$AUTOSTART_DIR/wisp-bar.desktop"
	rm -f "$tmp"
	echo "wisp-bar starts with your desktop session ($AUTOSTART_DIR/wisp-bar.desktop)"
}

# install_apparmor: only for a real install on Linux where AppArmor
# restricts unprivileged user namespaces. As root it installs and loads the
# profile; otherwise it says the one command that does.
install_apparmor() {
	[ -z "$DESTDIR" ] && [ "$(uname -s)" = Linux ] && restricted || return 0
	if [ "$(id -u)" = 0 ]; then
		sh "$apparmor_sh" load "$profile_copy"
		record f "$apparmor_profile"
		return
	fi
	echo "AppArmor restricts unprivileged user namespaces here: without wisp's profile, .git/hooks and .git/config inside a project stay writable to confined commands."
	echo "To let wisp, and only wisp, make its namespaces: sudo install -m 0644 $profile_copy $apparmor_profile && sudo apparmor_parser -r $apparmor_profile"
}

# keep_old_record: a second install keeps the folders the first one made
# (they exist now, so this run does not make them) on the record.
keep_old_record() {
	[ -f "$DESTDIR$manifest" ] || return 0
	grep '^d ' "$DESTDIR$manifest" >>"$new_manifest" || true
}

do_install() {
	[ $# -gt 0 ] || { echo "install.sh install: no binaries named" >&2; exit 2; }
	new_manifest=$(mktemp)
	trap 'rm -f "$new_manifest"' EXIT
	keep_old_record
	install_binaries "$@"
	install_completions "$1"
	if [ "$(uname -s)" = Linux ]; then
		install_profile_copy
	fi
	for bin in "$@"; do
		if [ "$(basename "$bin")" = wisp-bar ] && [ -n "$AUTOSTART_DIR" ]; then
			install_autostart
		fi
	done
	write_record # before the profile is loaded: should that fail, uninstall still finds the rest
	install_apparmor
	write_record
	[ -n "$DESTDIR" ] || say_path
}

# on_path DIR: whether DIR is one of PATH's folders.
on_path() {
	case ":$PATH:" in
	*":$1:"* | *":$1/:"*) return 0 ;;
	esac
	return 1
}

# say_path: where PREFIX/bin is not on PATH, `wisp` alone is "command not
# found"; say how to run it now and how to make it found from the next login.
# Debian's ~/.profile adds ~/.local/bin only if it existed at login, so a
# first install there needs a new login, not a new line.
say_path() {
	bindir=$PREFIX/bin
	on_path "$bindir" && return 0
	shown=$bindir
	case $bindir in "$HOME"/*) shown="\$HOME/${bindir#"$HOME"/}" ;; esac
	echo
	echo "$bindir is not on your PATH, so the command wisp is not found yet."
	echo "Run it by its path now:  $bindir/wisp chat"
	if [ -f "$HOME/.profile" ] && grep -qF -e "$shown" -e "$bindir" "$HOME/.profile" 2>/dev/null; then
		echo "Your ~/.profile adds $bindir to PATH when it exists at login: it does now, so log in again, or run  . ~/.profile  in this shell."
		return 0
	fi
	echo "To find it by name, add this line to ~/.profile:"
	echo "    export PATH=\"$shown:\$PATH\""
	echo "then log in again, or run  . ~/.profile  in this shell."
}

write_record() {
	make_dirs "$(dirname "$manifest")"
	awk '!seen[$0]++' "$new_manifest" >"$DESTDIR$manifest"
	chmod 0644 "$DESTDIR$manifest"
}

# remove_file PATH: the AppArmor profile is unloaded before it goes. It
# says what it removed, and what was gone already.
remove_file() {
	if [ "$1" = "$apparmor_profile" ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "$apparmor_profile is root's: run sudo make uninstall to unload and remove it" >&2
			return 1
		fi
		sh "$apparmor_sh" unload
		return
	fi
	if [ -e "$DESTDIR$1" ] || [ -L "$DESTDIR$1" ]; then
		rm -f "$DESTDIR$1"
		echo "removed $1"
	else
		echo "not found (removed already?): $1"
	fi
}

# stop_bar: a wisp-bar still running from PREFIX/bin would keep its icon
# and banners on screen with nothing behind them; SIGTERM makes it withdraw
# them and end. Only that binary's processes, found by what they run.
stop_bar() {
	[ -z "$DESTDIR" ] && [ -d /proc ] || return 0
	for exe in /proc/[0-9]*/exe; do
		target=$(readlink "$exe" 2>/dev/null) || continue
		[ "$target" = "$PREFIX/bin/wisp-bar" ] || [ "$target" = "$PREFIX/bin/wisp-bar (deleted)" ] || continue
		pid=${exe#/proc/}
		pid=${pid%/exe}
		kill -TERM "$pid" 2>/dev/null && echo "stopped wisp-bar (pid $pid)"
	done
}

# say_home: uninstall never touches wisp's home, which holds the person's
# configuration, conversations, approvals and audit log.
say_home() {
	home=${WISP_HOME:-$HOME/.wisp}
	[ -d "$home" ] || return 0
	echo "kept $home (your configuration, conversations, approvals and audit log): to remove it too, rm -rf $home"
}

# do_uninstall: the recorded files, then the recorded folders deepest
# first, each only once it is empty.
do_uninstall() {
	stop_bar
	if [ ! -f "$DESTDIR$manifest" ]; then
		uninstall_unrecorded "$@"
		say_home
		return
	fi
	dirs=$(awk '/^d /{d[n++] = substr($0, 3)} END{for (i = n - 1; i >= 0; i--) print d[i]}' "$DESTDIR$manifest")
	failed=0
	while IFS= read -r line; do
		case $line in
		"f "*) remove_file "${line#f }" || failed=1 ;;
		esac
	done <"$DESTDIR$manifest"
	[ "$failed" = 0 ] || exit 1
	rm -f "$DESTDIR$manifest"
	printf '%s\n' "$dirs" | while IFS= read -r d; do
		[ -n "$d" ] && [ -d "$DESTDIR$d" ] || continue
		rmdir "$DESTDIR$d" 2>/dev/null || echo "kept $d: it holds files make install did not write"
	done
	echo "removed what make install wrote for $PREFIX"
	say_home
}

# uninstall_unrecorded NAME...: an install from before the record wrote
# only the binaries and wisp-bar's autostart entry. Where there is neither,
# the PREFIX is likely not the one wisp was installed with: say so, and
# where the wisp on PATH is.
uninstall_unrecorded() {
	found=
	for name in "$@"; do
		if [ -f "$DESTDIR$PREFIX/bin/$name" ]; then
			rm -f "$DESTDIR$PREFIX/bin/$name"
			echo "removed $PREFIX/bin/$name"
			found=1
		fi
	done
	entry=$AUTOSTART_DIR/wisp-bar.desktop
	if [ -n "$AUTOSTART_DIR" ] && grep -qx "Exec=$PREFIX/bin/wisp-bar" "$entry" 2>/dev/null; then
		rm -f "$entry"
		echo "removed $entry"
		found=1
	fi
	[ -z "$found" ] || return 0
	echo "nothing to remove: no record of an install in $PREFIX ($manifest), and no wisp in $PREFIX/bin"
	if installed=$(command -v wisp 2>/dev/null) && [ "$installed" != "$PREFIX/bin/wisp" ]; then
		echo "the wisp on your PATH is $installed: to remove that one, make uninstall PREFIX=$(dirname "$(dirname "$installed")")"
	else
		echo "if wisp was installed with another PREFIX, run make uninstall PREFIX=that-prefix"
	fi
}

main() {
	cmd=${1:-}
	[ $# -gt 0 ] && shift
	case $cmd in
	install) do_install "$@" ;;
	uninstall) do_uninstall "$@" ;;
	*) echo "usage: install.sh install BINARY... | uninstall NAME..." >&2; exit 2 ;;
	esac
}

main "$@"
