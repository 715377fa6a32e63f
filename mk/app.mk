# wisp-bar's packaging, included by the Makefile: the macOS app bundle
# (make app), its installation with a LaunchAgent (make install-app), and on
# Linux the XDG autostart entry (make install-autostart; make install adds it).

GO            ?= go
VERSION       ?= $(shell git describe --always --dirty 2>/dev/null || echo 0.1.0-dev)
PREFIX        ?= /usr/local
# macOS wants a numeric version: v1.2.3-4-gabc gives 1.2.3, a bare hash 0.0.0.
APP_VERSION   ?= $(or $(shell echo '$(VERSION)' | sed -nE 's/^v?([0-9]+(\.[0-9]+)*).*/\1/p'),0.0.0)
APP_NAME      := Wisp Bar
DIST          ?= dist
APP           := $(DIST)/$(APP_NAME).app
APPDIR        ?= /Applications
# A code-signing identity (Developer ID, or a self-signed one); empty signs ad hoc.
SIGN_IDENTITY ?=
LAUNCH_AGENTS ?= $(HOME)/Library/LaunchAgents
AGENT_LABEL   := sh.wisp.bar
AGENT_LOG     ?= $(HOME)/Library/Logs/wisp-bar.log
AUTOSTART_DIR ?= $(or $(XDG_CONFIG_HOME),$(HOME)/.config)/autostart
APP_OS        := $(shell uname -s)

.PHONY: app app-bundle app-needs-macos install-app launch-agent install-autostart

# The bundle's frame, without the binary: Info.plist and PkgInfo.
app-bundle:
	rm -rf "$(APP)"
	install -d "$(APP)/Contents/MacOS" "$(APP)/Contents/Resources"
	sed -e 's/@VERSION@/$(APP_VERSION)/g' -e 's/@BUILD@/$(VERSION)/g' Info.plist > "$(APP)/Contents/Info.plist"
	printf 'APPL????' > "$(APP)/Contents/PkgInfo"

# Wisp Bar.app: wisp-bar built with cgo (notifications, the menu bar) in
# its bundle, which macOS needs before it shows a notification, then signed:
# with SIGN_IDENTITY when given, ad hoc otherwise, and it says which.
app: app-needs-macos app-bundle
	CGO_ENABLED=1 $(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o "$(APP)/Contents/MacOS/wisp-bar" ./cmd/wisp-bar
	@if [ -n "$(SIGN_IDENTITY)" ]; then \
		echo "signing $(APP) with the identity $(SIGN_IDENTITY)"; \
		codesign --force --sign "$(SIGN_IDENTITY)" "$(APP)"; \
	else \
		echo "signing $(APP) ad hoc, since SIGN_IDENTITY is not set: macOS may refuse its notifications, and every build changes its signature (see docs/wisp-bar.md)"; \
		codesign --force --sign - "$(APP)"; \
	fi

app-needs-macos:
ifneq ($(APP_OS),Darwin)
	@echo "make app builds Wisp Bar.app and needs macOS (cgo with the macOS SDK); on $(APP_OS), make install installs wisp-bar" >&2; exit 1
endif

# The LaunchAgent, for the app installed in APPDIR (AGENT_OUT to write it elsewhere).
AGENT_OUT ?= $(LAUNCH_AGENTS)/$(AGENT_LABEL).plist
launch-agent:
	install -d "$(dir $(AGENT_OUT))"
	sed -e 's|@EXECUTABLE@|$(APPDIR)/$(APP_NAME).app/Contents/MacOS/wisp-bar|g' -e 's|@LOG@|$(AGENT_LOG)|g' \
		packaging/macos/$(AGENT_LABEL).plist > "$(AGENT_OUT)"

# Install Wisp Bar.app into APPDIR and start it now and at every login.
install-app: app launch-agent
	rm -rf "$(APPDIR)/$(APP_NAME).app"
	cp -R "$(APP)" "$(APPDIR)/"
	install -d "$(dir $(AGENT_LOG))"
	-launchctl bootout gui/$$(id -u)/$(AGENT_LABEL) 2>/dev/null
	launchctl bootstrap gui/$$(id -u) "$(AGENT_OUT)"
	@echo "$(APP_NAME) is installed in $(APPDIR) and running; the LaunchAgent $(AGENT_LABEL) starts it at login"

# On Linux, make install also starts wisp-bar with the desktop session.
install-autostart:
	install -d "$(AUTOSTART_DIR)"
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' packaging/linux/wisp-bar.desktop > "$(AUTOSTART_DIR)/wisp-bar.desktop"
	@echo "wisp-bar starts with your desktop session ($(AUTOSTART_DIR)/wisp-bar.desktop)"

# make install adds the same entry itself, after the binaries, and not for
# a staged install (DESTDIR, a package build): the builder's own desktop
# session is not the package's (scripts/install.sh).
