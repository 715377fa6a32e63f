//go:build linux

package sandboxtest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A setIDCase makes file with a set-ID bit, in one of the ways an attacker
// or a test suite would. Confined as root every one is refused: a setuid
// or setgid copy of a shell made as root is root's, or a group's, for
// whoever starts it, outside the sandbox. A person may make those that
// grant no one more than their own rights: set-user-ID (the file is
// theirs), set-group-ID without execute for others, and set-group-ID in
// full when every group they hold is theirs alone (forOthers).
type setIDCase struct {
	name, line, file string
	want             os.FileMode // the bits a person's run leaves on file
	forOthers        bool        // set-group-ID that others may execute
	rootOnly         bool        // the line needs root (chown)
}

func (s *suite) setIDCases() []setIDCase {
	sh := func(name, chmod string) string { return "cp /bin/sh " + name + " && chmod " + chmod + " " + name }
	return []setIDCase{
		{"chmod 4755 of a copy of /bin/sh", sh("sh-4755", "4755"), "sh-4755", os.ModeSetuid, false, false},
		{"chmod u+s of a copy of /bin/sh", sh("sh-us", "u+s"), "sh-us", os.ModeSetuid, false, false},
		{"chmod u+s of a 644 file (mvdan.cc/sh)", ">f-us && chmod u+s f-us", "f-us", os.ModeSetuid, false, false},
		{"chmod g+s of a 644 file (mvdan.cc/sh)", ">f-gs && chmod g+s f-gs", "f-gs", os.ModeSetgid, false, false},
		{"chmod g+s of a shared folder (2770)", "mkdir -m 770 shared && chmod g+s shared", "shared", os.ModeSetgid, false, false},
		{"chmod 2755 of a copy of /bin/sh", sh("sh-2755", "2755"), "sh-2755", os.ModeSetgid, true, false},
		{"chmod 6755 of a copy of /bin/sh", sh("sh-6755", "6755"), "sh-6755", os.ModeSetuid | os.ModeSetgid, true, false},
		{"open(O_CREAT, 04755) under umask 0", s.probe("create-mode", "created-4755", "4755"), "created-4755", os.ModeSetuid, false, false},
		{"mknod S_IFREG|06755 under umask 0", s.probe("mknod-mode", "mknod-6755", "6755"), "mknod-6755", os.ModeSetuid | os.ModeSetgid, true, false},
		{"install -m 4755 /bin/sh", "install -m 4755 /bin/sh installed-4755", "installed-4755", os.ModeSetuid, false, false},
		{"a file given away, then chmod 4755", "cp /bin/sh given && chown 1:1 given && chmod 4755 given", "given", 0, false, true},
	}
}

// setuidRefused runs every setIDCase confined: refused as root, made as a
// person where it grants nothing. chmod +x and a sticky folder still work.
func (s *suite) setuidRefused(t *testing.T) {
	s.t = t
	s.control("cp /bin/sh control-sh && chmod 4755 control-sh && chmod 2755 control-sh && rm control-sh")
	s.mustSucceed(s.spec(true), "cp /bin/sh plain-sh && chmod 755 plain-sh && chmod +x plain-sh && chmod 1777 .")
	_ = os.Chmod(s.proj, 0o755)
	root, groupsOwn := s.commandIdentity()
	t.Logf("commands run as root: %v; every group theirs alone: %v", root, groupsOwn)
	for _, c := range s.setIDCases() {
		if c.rootOnly && !root {
			continue
		}
		allowed := !root && (!c.forOthers || groupsOwn)
		out, code := s.confined(s.spec(true), c.line)
		bits := s.setIDBits(c.file)
		switch {
		case allowed && code != 0:
			t.Errorf("%s: refused (status %d), but it grants no one more than the person's rights:\n%s", c.name, code, out)
		case allowed && bits != c.want:
			t.Errorf("%s: %s has set-ID bits %v, want %v", c.name, c.file, bits, c.want)
		case !allowed && code == 0:
			t.Errorf("%s: succeeded, want it refused", c.name)
		case !allowed && bits != 0:
			t.Errorf("%s: %s was made %v inside the root", c.name, c.file, bits)
		}
	}
	s.copyOfSetuidRefused(t, root)
}

// copyOfSetuidRefused: cp -p of a set-user-ID program makes no set-ID copy
// owned by root: as root the mode is refused (GNU cp then keeps the copy
// without the bits, and says nothing), and a person's copy is theirs.
func (s *suite) copyOfSetuidRefused(t *testing.T, root bool) {
	src := filepath.Join(s.outside, "suid-src")
	data, err := os.ReadFile("/bin/sh")
	if err == nil {
		err = os.WriteFile(src, data, 0o755)
	}
	if err == nil {
		err = os.Chmod(src, 0o4755) // owned by the test's user: root in the runs where it matters
	}
	if err != nil {
		t.Fatal(err)
	}
	out, code := s.confined(s.spec(true), "cp -p "+shellQuote(src)+" copied")
	bits := s.setIDBits("copied")
	if root && bits != 0 {
		t.Errorf("cp -p of a setuid program as root made a copy with %v (status %d):\n%s", bits, code, out)
	}
	if info, err := os.Stat(filepath.Join(s.proj, "copied")); err == nil && bits != 0 {
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid == 0 {
			t.Errorf("cp -p made a set-ID copy owned by root: %v", info.Mode())
		}
	}
}

// commandIdentity says whether the suite's commands run as root, and
// whether every group they hold is theirs alone (one group, named after
// them), as id(1) reports it for an unconfined command.
func (s *suite) commandIdentity() (root, groupsOwn bool) {
	s.t.Helper()
	out, code := s.plain("id -u; id -un; id -gn; id -G")
	f := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(f) != 4 {
		s.t.Fatalf("id: status %d:\n%s", code, out)
	}
	return f[0] == "0", f[1] == f[2] && len(strings.Fields(f[3])) == 1
}

// setIDBits are the set-ID bits of name in the project, 0 when it is
// missing.
func (s *suite) setIDBits(name string) os.FileMode {
	info, err := os.Stat(filepath.Join(s.proj, name))
	if err != nil {
		return 0
	}
	return info.Mode() & (os.ModeSetuid | os.ModeSetgid)
}
