package refusal

import "testing"

// Seatbelt alone refuses to start a set-ID program: under Landlock
// (no_new_privs) it starts without the privilege, so the same line there is
// read as any other.
func TestSetIDOnlyOnMacOS(t *testing.T) {
	in := Input{Output: []byte("sh: /bin/ps: Operation not permitted\n"), Dir: "/w/proj", Roots: tableRoots,
		Resolve: tableResolve, SetID: func(p string) bool { return p == "/bin/ps" }}
	for goos, want := range map[string]Verdict{"darwin": SetID, "linux": Refused} {
		t.Run(goos, func(t *testing.T) {
			defer setGOOS(goos)()
			if r := Check(in); r.Verdict != want {
				t.Errorf("got %+v, want %s", r, want)
			}
		})
	}
	defer setGOOS("darwin")()
	in.SetID = func(string) bool { return false }
	if r := Check(in); r.Verdict != Refused {
		t.Errorf("a program without a set-ID bit: got %+v, want refused", r)
	}
	in.Output = []byte("cp: /bin/ps: Operation not permitted\ncp: cannot create regular file '/bin/ps': Operation not permitted\n")
	in.SetID = func(p string) bool { return p == "/bin/ps" }
	if r := Check(in); r.Verdict != Refused {
		t.Errorf("a write over a set-ID program: got %+v, want refused", r)
	}
}

func TestNestedSwitch(t *testing.T) {
	for _, c := range []struct{ command, output, want string }{
		{"swift build -c release", "", "swift build --disable-sandbox"},
		{"cd pkg && /usr/bin/swift test", "", "swift test --disable-sandbox"},
		{"swiftc -o x main.swift", "", "swiftc -disable-sandbox"},
		{"xcodebuild -scheme App build", "", "xcodebuild … ENABLE_USER_SCRIPT_SANDBOXING=NO"},
		{"make", "error: 'p': Invalid manifest", "swift build --disable-sandbox"},
		{"npm start", "[12:FATAL] Electron sandbox initialization failed: Operation not permitted", "--no-sandbox (or ELECTRON_DISABLE_SANDBOX=1)"},
		{"npx playwright test", "", "--no-sandbox (Puppeteer and Playwright: args: ['--no-sandbox'])"},
		{"brew install --build-from-source x", "sandbox-exec: sandbox_apply: Operation not permitted", ""},
	} {
		if got := nestedSwitch(c.command, []byte(c.output)); got != c.want {
			t.Errorf("%s / %q: got %q, want %q", c.command, c.output, got, c.want)
		}
	}
}
