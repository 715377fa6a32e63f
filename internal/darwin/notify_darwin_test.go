//go:build darwin && cgo

package darwin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/darwin/banners"
)

// inBundleEnv marks the copy of this test binary that runs inside a
// bundle (TestInsideABundle).
const inBundleEnv = "WISP_DARWIN_TEST_IN_BUNDLE"

// A test binary has no bundle identifier, and macOS kills a process
// without one at its first notification call: every call refuses by name
// before touching the notification center, and the process lives on.
func TestWithoutABundleNothingTouchesTheCenter(t *testing.T) {
	if os.Getenv(inBundleEnv) != "" {
		t.Skip("this copy runs inside a bundle")
	}
	if id := BundleID(); id != "" {
		t.Fatalf("the test binary has a bundle identifier, %q", id)
	}
	if _, err := Start(); !errors.Is(err, ErrNoBundle) {
		t.Errorf("Start: %v, want ErrNoBundle", err)
	}
	n := &Notifier{}
	if err := n.Show("0123456789abcdef", "wisp: test", "no bundle", BothButtons); !errors.Is(err, ErrNoBundle) {
		t.Errorf("Show: %v, want ErrNoBundle", err)
	}
	if got := categories(time.Second); got != nil {
		t.Errorf("categories read without a bundle: %v", got)
	}
	n.Withdraw("0123456789abcdef")
	n.WithdrawAll()
}

// The notifier inside a bundle, as Wisp Bar.app runs it: this test copies
// its own binary into a bundle of its own (sh.wisp.bar.test, signed ad hoc
// as make app signs Wisp Bar.app without a Developer ID) and runs
// TestInsideABundle there.
func TestInABundle(t *testing.T) {
	if os.Getenv(inBundleEnv) != "" {
		t.Skip("this copy runs inside a bundle")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(t.TempDir(), "WispDarwinTest.app")
	macos := filepath.Join(app, "Contents", "MacOS")
	if err := os.MkdirAll(macos, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(macos, "darwin-test")
	if err := os.WriteFile(copied, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "Contents", "Info.plist"), []byte(testPlist), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("codesign", "--force", "--sign", "-", app).CombinedOutput(); err != nil {
		t.Fatalf("codesign --sign - %s: %v\n%s", app, err, out)
	}
	cmd := exec.Command(copied, "-test.run=^TestInsideABundle$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), inBundleEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("inside the bundle:\n%s", out)
	if err != nil {
		t.Fatalf("the notifier inside a bundle: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: TestInsideABundle") {
		t.Fatal("TestInsideABundle did not run inside the bundle")
	}
}

const testPlist = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleIdentifier</key>
	<string>sh.wisp.bar.test</string>
	<key>CFBundleName</key>
	<string>Wisp Darwin Test</string>
	<key>CFBundleExecutable</key>
	<string>darwin-test</string>
	<key>CFBundlePackageType</key>
	<string>APPL</string>
	<key>CFBundleInfoDictionaryVersion</key>
	<string>6.0</string>
	<key>LSUIElement</key>
	<true/>
</dict>
</plist>
`

// TestInsideABundle runs only in TestInABundle's copy. It checks what can
// be checked without a person: the bundle identifier, the two categories
// and their buttons registered, the authorization read back (without
// asking: a test must not raise macOS's question), and a post's outcome:
// either macOS takes the banner, or its error comes back from Show and as
// banners off on Reports, which brings the alert.
func TestInsideABundle(t *testing.T) {
	if os.Getenv(inBundleEnv) == "" {
		t.Skip("runs inside the bundle TestInABundle makes")
	}
	if id := BundleID(); id != "sh.wisp.bar.test" {
		t.Fatalf("BundleID() = %q inside the bundle", id)
	}
	n, err := start(false)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer n.WithdrawAll()

	state := nextReport(t, 10*time.Second)
	t.Logf("authorization read back: %s (%+v)", state.Status, state)
	if state.Asked {
		t.Errorf("the test asked for permission: %+v", state)
	}
	if state.Status > banners.Ephemeral {
		t.Errorf("an authorization status wisp does not know: %d", state.Status)
	}
	if on := state.Off() == ""; on != state.Status.Allowed() {
		t.Errorf("status %s, yet banners on = %v", state.Status, on)
	}

	want := []string{"sh.wisp.request.deny:deny", "sh.wisp.request:approve,deny"}
	var got []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = categories(5 * time.Second); slices.Equal(got, want) {
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("categories registered: %q, want %q", got, want)
	}

	id := fmt.Sprintf("%016x", time.Now().UnixNano())
	err = n.Show(id, "wisp: darwin test", "a banner from wisp's darwin tests; it is withdrawn at once", NoButtons)
	defer n.Withdraw(id)
	if err == nil {
		t.Logf("macOS took the banner (authorization %s)", state.Status)
		return
	}
	t.Logf("macOS refused the banner: %v", err)
	after := nextReport(t, 5*time.Second)
	if after.Err == "" || !strings.Contains(after.Err, id) || after.Off() == "" {
		t.Errorf("a refused post, %v, did not report banners off: %+v", err, after)
	}
}

func nextReport(t *testing.T, wait time.Duration) banners.State {
	t.Helper()
	select {
	case s := <-Reports():
		return s
	case <-time.After(wait):
		t.Fatalf("no report from the notification center within %s", wait)
	}
	return banners.State{}
}
