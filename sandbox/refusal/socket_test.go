package refusal_test

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox/refusal"
)

// TestSocketRefusalSaysWhichAndHow: a Unix socket refused is named as the
// sandbox's in both of its forms, each saying why and how to open it:
// Landlock's EACCES on a connect (ABI 9: a socket of a program outside the
// sandbox) and the seccomp filter's EPERM on socket() (a mode that cannot
// tell a command's own sockets from the person's).
func TestSocketRefusalSaysWhichAndHow(t *testing.T) {
	for _, tc := range []struct {
		output, want string
	}{
		{"dial unix /run/user/1000/bus: connect: permission denied\n", "it belongs to a program outside the sandbox"},
		{"listen unixgram /tmp/x.sock: socket: operation not permitted\n", "may not make Unix sockets at all"},
	} {
		res := refusal.Check(refusal.Input{Output: []byte(tc.output), Dir: "/home/p/proj", Home: "/home/p",
			Roots: []string{"/home/p/proj", "/tmp"}, Resolve: func(p string) string { return p }})
		if res.Verdict != refusal.RefusedSocket {
			t.Fatalf("%q: verdict %q, want %q", tc.output, res.Verdict, refusal.RefusedSocket)
		}
		for _, text := range []string{res.ModelLine(nil, false), res.PersonNote(nil)} {
			if !strings.Contains(text, tc.want) || !strings.Contains(text, "commandPolicy.sandbox.allowUnixSockets") {
				t.Errorf("%q: %q lacks %q or the way to open it", tc.output, text, tc.want)
			}
		}
	}
}
