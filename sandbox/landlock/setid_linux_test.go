package landlock

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

const (
	testPasswd = `root:x:0:0:root:/root:/bin/bash
ana:x:1001:1001::/home/ana:/bin/sh
bo:x:1002:1002::/home/bo:/bin/sh
cy:x:1003:1001::/home/cy:/bin/sh
`
	testGroup = `root:x:0:
sudo:x:27:ana
ana:x:1001:
bo:x:1002:bo,ana
docker:x:999:ana
solo:x:998:ana
`
)

// TestSetIDRuleByIdentity: root in any namespace gets no set-ID bit; a
// person gets set-user-ID, and set-group-ID in full only when every group
// they hold is theirs alone.
func TestSetIDRuleByIdentity(t *testing.T) {
	bo := identity{uid: 1002, gid: 1002, groups: []int{1002}, overflow: 65534}
	for _, tc := range []struct {
		name string
		id   identity
		want setIDRule
	}{
		{"root", identity{uid: 0, gid: 0}, setIDNone},
		{"root in a user namespace mapped to root", identity{uid: 0, uidMap: []byte("0 0 1\n")}, setIDNone},
		{"a person mapped to root outside", identity{uid: 1001, gid: 1001, uidMap: []byte("1001 0 1\n")}, setIDNone},
		{"a person not mapped at all", identity{uid: 1001, gid: 1001, uidMap: []byte("0 100000 1000\n")}, setIDNone},
		{"root inside, a person outside", identity{uid: 0, gid: 0, uidMap: []byte("0 1001 1\n")}, setIDNone},
		{"bo, whose group has ana in it", bo, setIDUserOnly},
		{"a person in sudo", identity{uid: 1001, gid: 1001, groups: []int{1001, 27}}, setIDUserOnly},
		{"ana, whose group cy has first", identity{uid: 1001, gid: 1001, groups: []int{1001}}, setIDUserOnly},
		{"a person in a group of theirs not named after them", identity{uid: 1001, gid: 1001, groups: []int{1001, 998}}, setIDUserOnly},
		{"a group unmapped in the user namespace", identity{uid: 1002, gid: 1002, groups: []int{1002, 65534}, overflow: 65534}, setIDUserOnly},
		{"a person /etc/passwd does not name", identity{uid: 4242, gid: 4242, groups: []int{4242}}, setIDUserOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.id.passwd, tc.id.group = []byte(testPasswd), []byte(testGroup)
			if tc.id.overflow == 0 {
				tc.id.overflow = 65534
			}
			if got := tc.id.rule(); got != tc.want {
				t.Errorf("rule = %v, want %v", got, tc.want)
			}
		})
	}
	// ana's own group 1001 is cy's first group too, so it is not hers alone.
	// Without cy, it is.
	alone := identity{uid: 1001, gid: 1001, groups: []int{1001}, overflow: 65534,
		passwd: []byte("ana:x:1001:1001::/home/ana:/bin/sh\n"), group: []byte("ana:x:1001:\n")}
	if got := alone.rule(); got != setIDBoth {
		t.Errorf("a person alone in a group named after them: rule = %v, want %v", got, setIDBoth)
	}
	alone.uidMap = []byte("1001 1001 1\n")
	if got := alone.rule(); got != setIDBoth {
		t.Errorf("the same person in wisp's user namespace: rule = %v, want %v", got, setIDBoth)
	}
}

// TestFilterSetIDModes runs the filter the helper installs on the calls an
// attacker and a test suite make, for each rule.
func TestFilterSetIDModes(t *testing.T) {
	if len(modeSyscalls) == 0 {
		t.Skip("no seccomp filter for this CPU")
	}
	const allow, eperm = "allow", "EPERM"
	cwd := uint64(0xffffff9c) // AT_FDCWD as the kernel reads an int
	fchmodat := func(mode uint64) [6]uint64 { return [6]uint64{cwd, 0, mode} }
	openat := func(mode uint64) [6]uint64 { return [6]uint64{cwd, 0, unix.O_CREAT | unix.O_WRONLY, mode} }
	mknodat := func(mode uint64) [6]uint64 { return [6]uint64{cwd, 0, unix.S_IFREG | mode} }
	fchmod := func(mode uint64) [6]uint64 { return [6]uint64{3, mode} }
	type call struct {
		what string
		nr   uint32
		args [6]uint64
	}
	calls := []struct {
		call
		none, userOnly, both string
	}{
		{call{"chmod 755", unix.SYS_FCHMODAT, fchmodat(0o755)}, allow, allow, allow},
		{call{"chmod 1777 (sticky)", unix.SYS_FCHMODAT, fchmodat(0o1777)}, allow, allow, allow},
		{call{"chmod u+s a 644 file (mvdan.cc/sh)", unix.SYS_FCHMODAT, fchmodat(0o4644)}, eperm, allow, allow},
		{call{"chmod g+s a 644 file (mvdan.cc/sh)", unix.SYS_FCHMODAT, fchmodat(0o2644)}, eperm, allow, allow},
		{call{"chmod 4755, a setuid shell", unix.SYS_FCHMODAT, fchmodat(0o4755)}, eperm, allow, allow},
		{call{"chmod 2770, a shared folder", unix.SYS_FCHMODAT, fchmodat(0o2770)}, eperm, allow, allow},
		{call{"chmod 2775, setgid for others to run", unix.SYS_FCHMODAT, fchmodat(0o2775)}, eperm, eperm, allow},
		{call{"chmod 6755", unix.SYS_FCHMODAT, fchmodat(0o6755)}, eperm, eperm, allow},
		{call{"fchmodat2 2755", unix.SYS_FCHMODAT2, fchmodat(0o2755)}, eperm, eperm, allow},
		{call{"fchmod 2711", unix.SYS_FCHMOD, fchmod(0o2711)}, eperm, eperm, allow},
		{call{"fchmod 4700", unix.SYS_FCHMOD, fchmod(0o4700)}, eperm, allow, allow},
		{call{"open(O_CREAT, 04755)", unix.SYS_OPENAT, openat(0o4755)}, eperm, allow, allow},
		{call{"open(O_CREAT, 02755)", unix.SYS_OPENAT, openat(0o2755)}, eperm, eperm, allow},
		{call{"open(O_CREAT, 0644)", unix.SYS_OPENAT, openat(0o644)}, allow, allow, allow},
		{call{"mknod S_IFREG|06755", unix.SYS_MKNODAT, mknodat(0o6755)}, eperm, eperm, allow},
		{call{"mknod S_IFREG|02750", unix.SYS_MKNODAT, mknodat(0o2750)}, eperm, allow, allow},
		{call{"high bits above the mode", unix.SYS_FCHMODAT, fchmodat(1<<32 | 0o2755)}, eperm, eperm, allow},
		{call{"io_uring_setup (openat with a mode of its own)", unix.SYS_IO_URING_SETUP, [6]uint64{}}, eperm, eperm, allow},
		{call{"setxattr (an access list)", unix.SYS_SETXATTR, [6]uint64{}}, allow, "EOPNOTSUPP", allow},
		{call{"openat2 (its mode is out of reach)", unix.SYS_OPENAT2, [6]uint64{}}, "ENOSYS", "ENOSYS", "ENOSYS"},
	}
	for _, rule := range []setIDRule{setIDNone, setIDUserOnly, setIDBoth} {
		// The network on, Unix sockets allowed and a read-only view: only
		// the mode rule and what is always refused are left.
		insns, err := commandFilter(filterRules{setID: rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			want := map[setIDRule]string{setIDNone: c.none, setIDUserOnly: c.userOnly, setIDBoth: c.both}[rule]
			if got := verdictOf(t, insns, c.nr, c.args); got != want {
				t.Errorf("%v: %s: %s, want %s", rule, c.what, got, want)
			}
		}
	}
}

// verdictOf runs a classic BPF filter on one syscall, as the kernel would.
func verdictOf(t *testing.T, insns []unix.SockFilter, nr uint32, args [6]uint64) string {
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[offNr:], nr)
	binary.LittleEndian.PutUint32(data[offArch:], seccompArch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[offArg0+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(insns); pc++ {
		in := insns[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K:
			taken := acc == in.K
			if in.Code&0xf0 == unix.BPF_JGE {
				taken = acc >= in.K
			}
			if taken {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return retName(in.K)
		default:
			t.Fatalf("instruction %d: code %#x is not one the filter uses", pc, in.Code)
		}
	}
	t.Fatal("the filter ran off its end")
	return ""
}

func retName(k uint32) string {
	if k == unix.SECCOMP_RET_ALLOW {
		return "allow"
	}
	return map[uint32]string{uint32(unix.EPERM): "EPERM", uint32(unix.EACCES): "EACCES",
		uint32(unix.ENOSYS): "ENOSYS", uint32(unix.EOPNOTSUPP): "EOPNOTSUPP"}[k&unix.SECCOMP_RET_DATA]
}
