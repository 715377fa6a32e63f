#!/bin/sh
# deb-check.sh: build wisp's .deb for this machine with nfpm alone
# (packaging/linux/nfpm.yaml) and inspect it as a person installing it
# would: dpkg-deb lists the binaries, the autostart entry, the completions
# and the AppArmor profile, and the maintainer scripts that load the
# profile; the packaged wisp runs and carries its version; the autostart
# entry starts the packaged wisp-bar and the profile attaches to the
# packaged wisp. It also fails when .goreleaser.yaml's .deb would hold
# other paths than this one. `make deb-check` runs it, `make check` too.
set -eu
cd "$(dirname "$0")/.."

GO=${GO:-go}
NFPM=${NFPM:?deb-check.sh needs NFPM, the nfpm module to go run (the Makefile sets it)}
version=$(git describe --always --dirty 2>/dev/null || echo 0.1.0-dev)
# Debian's versions start with a digit: v1.2.3-4-gabc is 1.2.3-4-gabc, a bare hash 0.0.0~git<hash>.
deb_version=$(echo "$version" | sed -e 's/^v//' -e 's/^\([^0-9]\)/0.0.0~git\1/')
arch=$($GO env GOARCH)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "deb-check: $*" >&2
	exit 1
}

# As make build builds them: wisp (cmd/wisp, lean) and wisp-agent (cmd/wisp-agent).
stamps="-X main.version=$version -X github.com/wisp-sh/wisp/internal/cli.Version=$version -X github.com/wisp-sh/wisp/sandbox.BuildVersion=$version"
CGO_ENABLED=0 $GO build -trimpath -ldflags "$stamps" -o "$tmp/bin/wisp" ./cmd/wisp
CGO_ENABLED=0 $GO build -trimpath -ldflags "$stamps" -o "$tmp/bin/wisp-agent" ./cmd/wisp-agent
for b in wisp-sandbox wisp-bar; do
	CGO_ENABLED=0 $GO build -trimpath -ldflags "$stamps" -o "$tmp/bin/$b" "./cmd/$b"
done
sh scripts/release-files.sh "$tmp/files" "$tmp/bin/wisp"
sed -e "s|\${WISP_ARCH}|$arch|g" -e "s|\${WISP_VERSION}|$deb_version|g" \
	-e "s|\${WISP_BIN}|$tmp/bin|g" -e "s|\${WISP_FILES}|$tmp/files|g" packaging/linux/nfpm.yaml >"$tmp/nfpm.yaml"
$GO run "$NFPM" package --config "$tmp/nfpm.yaml" --packager deb --target "$tmp/wisp.deb" >"$tmp/nfpm.log" 2>&1 || { cat "$tmp/nfpm.log" >&2; fail "nfpm could not build the .deb"; }
deb=$tmp/wisp.deb

dpkg-deb -c "$deb" >"$tmp/contents"
for path in /usr/bin/wisp /usr/bin/wisp-agent /usr/bin/wisp-sandbox /usr/bin/wisp-bar /etc/xdg/autostart/wisp-bar.desktop \
	/usr/share/bash-completion/completions/wisp /usr/share/zsh/vendor-completions/_wisp \
	/usr/share/fish/vendor_completions.d/wisp.fish \
	/usr/share/wisp/apparmor.d/wisp /usr/share/wisp/apparmor.sh /usr/share/doc/wisp/copyright; do
	grep -q " \.$path\$" "$tmp/contents" || fail "the .deb has no $path:$(printf '\n')$(cat "$tmp/contents")"
done
grep -q '^-rwxr-xr-x .* \./usr/bin/wisp$' "$tmp/contents" || fail "/usr/bin/wisp is not 0755 in the .deb"
# Nothing lands in /etc/apparmor.d itself: the postinst puts the profile
# there only where AppArmor restricts user namespaces.
! grep -q ' \./etc/apparmor\.d/' "$tmp/contents" || fail "the .deb installs into /etc/apparmor.d on every system"

dpkg-deb --ctrl-tarfile "$deb" | tar -t >"$tmp/control"
grep -qx './postinst' "$tmp/control" || fail "the .deb has no postinst to load the AppArmor profile"
grep -qx './prerm' "$tmp/control" || fail "the .deb has no prerm to unload the AppArmor profile"
[ "$(dpkg-deb -f "$deb" Package)" = wisp ] || fail "the package is not named wisp"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "the package is not for $arch"

dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/wisp" --version | grep -qF "$version" || fail "the packaged wisp does not say its version $version"
grep -qx 'Exec=/usr/bin/wisp-bar' "$tmp/root/etc/xdg/autostart/wisp-bar.desktop" || fail "the autostart entry does not start /usr/bin/wisp-bar"
for b in wisp wisp-agent wisp-sandbox; do
	grep -q "^profile $b /usr/bin/$b flags=(unconfined) {\$" "$tmp/root/usr/share/wisp/apparmor.d/wisp" || fail "the AppArmor profile does not attach to /usr/bin/$b"
done
[ "$(grep -c '^  userns,$' "$tmp/root/usr/share/wisp/apparmor.d/wisp")" = 3 ] || fail "the AppArmor profiles do not all grant userns"

# The release's .deb (GoReleaser's nfpms) holds the same paths; GoReleaser
# adds the binaries itself (bindir).
dsts() { sed -n 's/^ *dst: *//p' "$1" | grep -v '^/usr/bin/' | sort; }
sed -n '/^nfpms:/,/^[a-z]/p' .goreleaser.yaml >"$tmp/goreleaser-nfpms"
dsts packaging/linux/nfpm.yaml >"$tmp/want"
dsts "$tmp/goreleaser-nfpms" >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" >&2 || fail ".goreleaser.yaml's .deb holds other paths than packaging/linux/nfpm.yaml's"
# ... and the same binaries: its builds (ids) are nfpm.yaml's /usr/bin.
sed -n 's|^ *dst: */usr/bin/||p' packaging/linux/nfpm.yaml | sort >"$tmp/want-bins"
sed -n 's/^ *ids: *\[\(.*\)\].*/\1/p' "$tmp/goreleaser-nfpms" | tr -d ' ' | tr , '\n' | sort >"$tmp/got-bins"
diff -u "$tmp/want-bins" "$tmp/got-bins" >&2 || fail ".goreleaser.yaml's .deb holds other binaries than packaging/linux/nfpm.yaml's"

[ "$(dpkg-deb -f "$deb" Version)" = "$deb_version" ] || fail "the package's version is not $deb_version"
echo "deb-check: wisp_${deb_version}_$arch.deb holds $(wc -l <"$tmp/contents") entries, with the binaries, the autostart entry, the completions, the AppArmor profile and its postinst"
