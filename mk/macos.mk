# macOS's own checks, included by the Makefile: what a Mac (a person's, or
# CI's hosted runner, .github/workflows/ci.yml) proves that Linux cannot.
# docs/macos.md says what each shows.

GO       ?= go
MAC_TEST := $(GO) test -count=1 -timeout $(TEST_TIMEOUT)

.PHONY: check-macos macos-needs-mac test-deps test-macos-sandbox test-macos-refusals test-macos-notifier check-app tour-macos

# Everything darwin-only, then the scripted tour a person follows.
check-macos: macos-needs-mac test-macos-sandbox test-macos-refusals test-macos-notifier check-app tour-macos

macos-needs-mac:
ifneq ($(APP_OS),Darwin)
	@echo "make check-macos runs wisp's macOS checks and needs a Mac; on $(APP_OS), make check type-checks the darwin code (vet-darwin, darwincheck)" >&2; exit 1
endif

# The Node packages the tests drive (the MCP client in mcp/testdata), as
# their lockfiles pin them: what .ci/run installs on Linux.
test-deps:
	git ls-files '*package-lock.json' | while read -r lock; do \
		npm ci --prefix "$$(dirname "$$lock")" --no-audit --no-fund --loglevel=error || exit 1; \
	done

# The conformance suite against the real Seatbelt backend, the nesting
# probe, and the profile's own tests.
test-macos-sandbox: macos-needs-mac
	WISP_REQUIRE_KERNEL=1 $(MAC_TEST) -v -run 'Seatbelt|ParseProfile' ./sandbox

# Real macOS tools refused under the real profile, each verdict checked,
# and the hand-written corpus.
test-macos-refusals: macos-needs-mac
	WISP_REQUIRE_KERNEL=1 $(MAC_TEST) -v -run 'TestCaptureCorpusMacOS|TestCorpus' ./sandbox/refusal

# The notifier's unit tests (cgo, the real UNUserNotificationCenter glue:
# the bundle check, and inside a bundle the test makes of itself, signed ad
# hoc, the categories, the authorization read back, a post's outcome) and
# wisp-bar's, built for macOS. codesign comes with the Command Line Tools.
test-macos-notifier: macos-needs-mac
	CGO_ENABLED=1 $(MAC_TEST) -v ./internal/darwin/... ./cmd/wisp-bar/...

# Wisp Bar.app as make app builds it: Info.plist well formed, the
# signature sound.
check-app: app
	plutil -lint "$(APP)/Contents/Info.plist"
	codesign --verify --strict --verbose=2 "$(APP)"
	codesign --display --verbose=2 "$(APP)" 2>&1 | grep -E '^(Identifier|Signature)='

# A person's tour: a confined write refused and named, a run outside the
# sandbox approved from a real banner, wisp-bar's menu.
tour-macos: macos-needs-mac build check-app
	scripts/tour-macos.sh
