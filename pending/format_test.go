//go:build unix

package pending

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var exampleTime = time.Date(2026, 11, 3, 14, 5, 9, 123456789, time.UTC)

// exampleChannel files requests with a known id, clock and requester, so
// their bytes are the contract's examples.
func exampleChannel(dir string) *Channel {
	c := New(dir, WithClock(func() time.Time { return exampleTime }), WithTimeout(10*time.Minute),
		WithIDSource(bytes.NewReader(bytes.Repeat([]byte{0x3f, 0x2a, 0x9c, 0x01, 0x5e, 0x77, 0xd4, 0x10}, 4))))
	c.self = func() (Requester, error) { return Requester{PID: 48213, StartTime: "8812345"}, nil }
	c.gone = func(Requester) bool { return false }
	return c
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was written (go test -update rewrites it):\n got: %s\nwant: %s", path, got, want)
	}
}

// The files' bytes are the contract's examples (docs/pending.md shows them).
func TestFileFormatsMatchTheContractsExamples(t *testing.T) {
	c := exampleChannel(pendingDir(t))
	f := fileHere(t, c, Request{
		Command: "brew upgrade", Cwd: "/Users/ana/src/shop", Level: LevelLow, Face: FaceChat,
		Reasons: []string{"the sandbox refused a write to /opt/homebrew"}, OutsideSandbox: true,
	})
	golden(t, "request.json", f.Bytes)
	onDisk, err := os.ReadFile(f.File)
	if err != nil || !bytes.Equal(onDisk, f.Bytes) || Binding(onDisk) != f.Binding {
		t.Errorf("the request file does not hold the bytes kept (err %v)", err)
	}
	golden(t, "request.binding", []byte(f.Binding+"\n"))
	face := exampleChannel(c.Dir)
	face.Now = func() time.Time { return exampleTime.Add(42 * time.Second) }
	a, err := face.Answer(mustGet(t, face, f.Request.ID), DecisionApprove, ScopeOnce, "wisp-bar")
	if err != nil {
		t.Fatal(err)
	}
	written, _ := os.ReadFile(c.answerPath(a.ID))
	golden(t, "answer.json", written)
}

// File holds an outside-sandbox request to the rules of decisions D16 and D17, whatever its
// caller asked.
func TestFileHoldsOutsideSandboxRequestsToTheRules(t *testing.T) {
	c := New(pendingDir(t))
	f := fileHere(t, c, Request{
		Command: "rustup update", Cwd: "/p", Level: LevelLow, Face: FaceMCP, Kind: KindOutsideSandbox,
		Reasons: []string{"network", OutsideReason}, Scopes: AllScopes,
	})
	r := f.Request
	if !r.OutsideSandbox || r.Level != LevelModerate || !slices.Equal(r.Scopes, []string{ScopeOnce}) ||
		!slices.Equal(r.Reasons, []string{OutsideReason, "network"}) {
		t.Errorf("filed %+v", r)
	}
	if !validID(r.ID) || r.Requester.PID != os.Getpid() || r.ExpiresAt.Sub(r.RequestedAt) != DefaultTimeout {
		t.Errorf("filed id %q, requester %+v, for %s", r.ID, r.Requester, r.ExpiresAt.Sub(r.RequestedAt))
	}
	info, err := os.Stat(f.File)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("request file mode %v (%v), want 0600", info.Mode(), err)
	}
}

// A request a face reads must be exactly a valid version 1 request.
func TestParseRequestRefusesAnythingElse(t *testing.T) {
	good, err := os.ReadFile("testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseRequest(good); err != nil {
		t.Fatalf("the example request: %v", err)
	}
	edit := func(old, new string) []byte { return []byte(strings.Replace(string(good), old, new, 1)) }
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"outsideSandbox dropped", edit(`"outsideSandbox": true`, `"outsideSandbox": false`), ErrMalformed},
		{"first reason dropped", edit(`"runs OUTSIDE`, `"runs`), ErrMalformed},
		{"more scopes", edit(`"once"`, `"once", "always"`), ErrMalformed},
		{"low level", edit(`"moderate"`, `"low"`), ErrMalformed},
		{"unknown field", edit(`"version": 1,`, `"version": 1, "env": {},`), ErrMalformed},
		{"a field twice", edit(`"version": 1,`, `"version": 1, "outsideSandbox": false,`), ErrMalformed},
		{"a field in another case", edit(`"outsideSandbox"`, `"OutsideSandbox"`), ErrMalformed},
		{"a field missing", edit(`"face": "chat",`, ``), ErrMalformed},
		{"requester field unknown", edit(`"pid"`, `"uid": 0, "pid"`), ErrMalformed},
		{"data after", append(slices.Clone(good), `{}`...), ErrMalformed},
		{"not UTF-8", edit(`brew`, "br\xffew"), ErrMalformed},
		{"upper-case id", edit(`"id": "3f2a9c015e77d410"`, `"id": "3F2A9C015E77D410"`), ErrMalformed},
		{"relative cwd", edit(`"/Users/ana/src/shop"`, `"src/shop"`), ErrMalformed},
		{"unknown face", edit(`"chat"`, `"ide"`), ErrMalformed},
		{"expires before filed", edit(`"expiresAt": "2026-11-03T14:15`, `"expiresAt": "2026-11-03T14:00`), ErrMalformed},
		{"no requester", edit(`"pid": 48213`, `"pid": 0`), ErrMalformed},
		{"version 2", edit(`"version": 1`, `"version": 2`), ErrVersion},
		{"version as text", edit(`"version": 1`, `"version": "1"`), ErrMalformed},
		{"empty", nil, ErrMalformed},
	} {
		if _, err := ParseRequest(tc.data); !errors.Is(err, tc.want) {
			t.Errorf("%s: ParseRequest = %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestDigestIsTheBindingsFirstEightCharacters(t *testing.T) {
	b := Binding([]byte("x"))
	if d := Digest(b); d != b[:8] || len(b) != 64 {
		t.Errorf("Digest(%s) = %s", b, d)
	}
}

// A requester names its own process so that faces can tell when it is gone.
func TestRequesterIsThisProcessAndAGoneOneIsStale(t *testing.T) {
	me, err := self()
	if err != nil || me.PID != os.Getpid() || requesterGone(me) {
		t.Fatalf("self = %+v, %v; gone %v", me, err, requesterGone(me))
	}
	if !requesterGone(Requester{PID: me.PID, StartTime: me.StartTime + "1"}) {
		t.Error("a reused pid (another start time) is not taken as gone")
	}
	if !requesterGone(Requester{PID: 1 << 22, StartTime: "1"}) { // above pid_max
		t.Error("a free pid is not taken as gone")
	}
}

func TestFileRefusesAnUnsafeFolder(t *testing.T) {
	home := t.TempDir()
	loose := filepath.Join(home, "loose")
	os.Mkdir(loose, 0o777)
	os.Chmod(loose, 0o777)
	link := filepath.Join(home, "link")
	os.Symlink(loose, link)
	for _, dir := range []string{loose, link} {
		if _, err := New(dir).File(context.Background(), commandRequest); !errors.Is(err, ErrUnsafeFolder) {
			t.Errorf("File in %s = %v, want ErrUnsafeFolder", dir, err)
		}
	}
	made := filepath.Join(home, "made", "pending")
	fileHere(t, New(made), commandRequest)
	if info, err := os.Stat(made); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("created folder mode %v (%v), want 0700", info.Mode(), err)
	}
}

// An addDirectory request names one absolute folder, runs nothing outside
// the sandbox and offers once alone; anything else is refused.
func TestAddDirectoryRequests(t *testing.T) {
	good, err := os.ReadFile("testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	grant := strings.NewReplacer(`"kind": "outsideSandbox"`, `"kind": "addDirectory"`,
		`"outsideSandbox": true`, `"outsideSandbox": false`, `"command": "brew upgrade"`, `"command": "add_directory /srv"`).Replace(string(good))
	r, err := ParseRequest([]byte(grant))
	if err != nil || AddDirectoryFolder(r) != "/srv" {
		t.Fatalf("an addDirectory request: %v (folder %q)", err, AddDirectoryFolder(r))
	}
	for name, data := range map[string]string{
		"a relative folder":   strings.Replace(grant, `"add_directory /srv"`, `"add_directory srv"`, 1),
		"a command":           strings.Replace(grant, `"add_directory /srv"`, `"rm -rf /srv"`, 1),
		"outside the sandbox": strings.Replace(grant, `"outsideSandbox": false`, `"outsideSandbox": true`, 1),
		"a scope beyond once": strings.Replace(grant, `"once"`, `"once", "always"`, 1),
		"a kind no one knows": strings.Replace(grant, `"addDirectory"`, `"grant"`, 1),
	} {
		if _, err := ParseRequest([]byte(data)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: ParseRequest = %v, want it refused as malformed", name, err)
		}
	}
}

// A prefix scope is offered by a command request that also offers its
// base scope and names the prefix in a reason; anywhere else it is refused.
func TestPrefixScopes(t *testing.T) {
	good, err := os.ReadFile("testdata/request.json")
	if err != nil {
		t.Fatal(err)
	}
	command := strings.NewReplacer(`"kind": "outsideSandbox"`, `"kind": "command"`, `"outsideSandbox": true`, `"outsideSandbox": false`,
		`"once"`, `"once", "session", "session-prefix"`,
		`"runs OUTSIDE the sandbox: it may write anywhere you can, ~/.wisp included; this one run only"`, `"`+PrefixReason+`brew upgrade …"`).Replace(string(good))
	r, err := ParseRequest([]byte(command))
	if err != nil || HeldPrefix(r) != "brew upgrade …" {
		t.Fatalf("a command request offering session-prefix: %v (prefix %q)", err, HeldPrefix(r))
	}
	for name, data := range map[string]string{
		"no base scope":        strings.Replace(command, `"session", `, ``, 1),
		"no prefix named":      strings.Replace(command, PrefixReason, `held: `, 1),
		"a scope no one knows": strings.Replace(command, `"session-prefix"`, `"forever-prefix"`, 1),
		"outside the sandbox":  strings.NewReplacer(`"kind": "command"`, `"kind": "outsideSandbox"`, `"outsideSandbox": false`, `"outsideSandbox": true`).Replace(command),
	} {
		if _, err := ParseRequest([]byte(data)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: ParseRequest = %v, want it refused as malformed", name, err)
		}
	}
}
