package refusal

import (
	"strings"
	"testing"
)

// secretsInput is the table's scene with /w/home/.ssh and /w/home/.netrc
// denied and /w/home/.ssh/known_hosts given back.
func secretsInput(output string) Input {
	in := checkCase{output: output}.input()
	in.DenyRead = []string{"/w/home/.ssh", "/w/home/.netrc"}
	in.AllowRead = []string{"/w/home/.ssh/known_hosts"}
	return in
}

// TestSecretReadRefused: a refused read of a secret, in the shapes
// programs print it, is RefusedRead naming the path; a refused read of
// anything else says nothing, and a write stays a write.
func TestSecretReadRefused(t *testing.T) {
	for _, c := range []struct {
		name, output string
		verdict      Verdict
		paths        []string
	}{
		{"cat", "cat: /w/home/.ssh/id_ed25519: Permission denied\n", RefusedRead, []string{"/w/home/.ssh/id_ed25519"}},
		{"cat by ~", "cat: ~/.ssh/id_ed25519: Permission denied\n", RefusedRead, []string{"/w/home/.ssh/id_ed25519"}},
		{"a file secret", "grep: /w/home/.netrc: Permission denied\n", RefusedRead, []string{"/w/home/.netrc"}},
		{"ls of the folder", "ls: cannot open directory '/w/home/.ssh': Permission denied\n", RefusedRead, []string{"/w/home/.ssh"}},
		{"python", "PermissionError: [Errno 13] Permission denied: '/w/home/.ssh/id_rsa'\n", RefusedRead, []string{"/w/home/.ssh/id_rsa"}},
		{"bash redirect in", "bash: /w/home/.ssh/config: Permission denied\n", RefusedRead, []string{"/w/home/.ssh/config"}},
		{"macOS", "cat: /w/home/.ssh/id_ed25519: Operation not permitted\n", RefusedRead, []string{"/w/home/.ssh/id_ed25519"}},
		{"a read elsewhere says nothing", "cat: /w/etc/shadow: Permission denied\n", None, nil},
		{"given back by allowRead", "cat: /w/home/.ssh/known_hosts: Permission denied\n", None, nil},
		{"a write there stays a write", "touch: cannot touch '/w/home/.ssh/x': Permission denied\n", Refused, []string{"/w/home/.ssh/x"}},
		{"a name that only starts like one", "cat: /w/home/.sshfoo: Permission denied\n", None, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Check(secretsInput(c.output))
			if r.Verdict != c.verdict || strings.Join(r.Paths, ",") != strings.Join(c.paths, ",") {
				t.Fatalf("Check = %q %q, want %q %q", r.Verdict, r.Paths, c.verdict, c.paths)
			}
		})
	}
}

// TestSecretReadWording: the model's line and the person's note in the
// issue's words, and the model told how the person can give it the file;
// no offer of a run outside the sandbox for a secret.
func TestSecretReadWording(t *testing.T) {
	r := Check(secretsInput("cat: /w/home/.ssh/id_ed25519: Permission denied\n"))
	wantLine := "sandbox: refused reading /w/home/.ssh/id_ed25519: secrets are not readable in the sandbox (commandPolicy.sandbox.denyRead)" +
		"; if you really need it, ask the person to paste it, or to run the command themselves with !!"
	if got := r.ModelLine(tableRoots, true); got != wantLine {
		t.Errorf("ModelLine =\n%s\nwant\n%s", got, wantLine)
	}
	wantNote := "· the sandbox refused reading /w/home/.ssh/id_ed25519: secrets are not readable in the sandbox (commandPolicy.sandbox.denyRead)" +
		"; type !! before the command to run it as yourself"
	if got := r.PersonNote(tableRoots); got != wantNote {
		t.Errorf("PersonNote =\n%s\nwant\n%s", got, wantNote)
	}
	if got := Folders(r); len(got) != 0 {
		t.Errorf("Folders = %q: a secret's folder is no folder to grant", got)
	}
}

// TestSecretReadBeforeOtherVerdicts: one output with a refused write and a
// refused secret gives the secret's verdict, whatever the order.
func TestSecretReadBeforeOtherVerdicts(t *testing.T) {
	out := "sh: 1: cannot create /w/out/x: Permission denied\ncat: /w/home/.ssh/id_ed25519: Permission denied\n"
	if r := Check(secretsInput(out)); r.Verdict != RefusedRead || len(r.Paths) != 1 {
		t.Fatalf("Check = %q %q, want RefusedRead of the key alone", r.Verdict, r.Paths)
	}
}
