package landlock

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A set-user-ID or set-group-ID file runs with its owner's or its group's
// rights for whoever starts it, outside the sandbox too. The filter sees
// only the mode a syscall asks for, never the file, so the helper decides
// before confining what the person's files may carry:
//
//   - Confined as root, in any namespace (wisp's user namespace maps root
//     to root, so root owns outside what root makes): neither bit. Root can
//     give a file to any user or group first, and a setuid copy of a shell
//     is a root shell for anyone.
//   - Not root: the set-user-ID bit. The kernel lets only a file's owner
//     change its mode, and a person who is not root cannot give a file
//     away, so the file runs as the person: it grants nothing the person
//     does not hold.
//   - Not root, every group the person holds their own (a user private
//     group: named after them, no other member): the set-group-ID bit too,
//     for the same reason.
//   - Not root, a group shared with others (sudo, docker, a team's group)
//     or one wisp cannot place: the set-group-ID bit only in a mode that
//     lets no one else execute the file (no S_IXOTH). Members of the group
//     hold its rights already; anyone else could gain them, and a
//     group's rights can be root's (docker, disk). A folder's g+s only
//     names the group of what is made in it, but the filter cannot tell a
//     folder from a file: `chmod g+s` works on a folder without execute for
//     others (2770, the usual shared folder), not on 2775.
//
// The kernel itself clears the set-group-ID bit of a group the person is
// not in. io_uring, which creates files with a mode of its own, is refused
// wherever a bit is.
type setIDRule int

const (
	// setIDNone refuses both bits; the zero value, so a filter built
	// without a rule fails closed.
	setIDNone setIDRule = iota
	// setIDUserOnly allows the set-user-ID bit, and the set-group-ID bit
	// without execute for others.
	setIDUserOnly
	// setIDBoth allows both bits.
	setIDBoth
)

// String names the rule as doctor and the report do.
func (r setIDRule) String() string {
	switch r {
	case setIDBoth:
		return "set-user-ID and set-group-ID on the person's own files"
	case setIDUserOnly:
		return "set-user-ID on the person's own files; set-group-ID only where others cannot execute"
	}
	return "no set-user-ID or set-group-ID"
}

// identity is who the helper confines: its effective ids and groups as
// this namespace sees them, and the files that name users and groups.
type identity struct {
	uid, gid      int
	groups        []int
	passwd, group []byte
	// uidMap is /proc/self/uid_map; outsideUID reads root's there.
	uidMap []byte
	// overflow is the id an unmapped one shows as in a user namespace.
	overflow int
}

// currentSetIDRule is the rule for the helper's own identity, read at
// confine time. A file that cannot be read leaves the stricter rule.
func currentSetIDRule() setIDRule {
	groups, err := unix.Getgroups()
	if err != nil {
		return setIDNone
	}
	id := identity{uid: unix.Geteuid(), gid: unix.Getegid(), groups: groups, overflow: 65534}
	id.passwd, _ = os.ReadFile("/etc/passwd")
	id.group, _ = os.ReadFile("/etc/group")
	id.uidMap, _ = os.ReadFile("/proc/self/uid_map")
	if data, err := os.ReadFile("/proc/sys/kernel/overflowgid"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			id.overflow = n
		}
	}
	return id.rule()
}

// rule decides for id.
func (id identity) rule() setIDRule {
	outside, ok := outsideUID(id.uidMap, id.uid)
	if id.uid == 0 || !ok || outside == 0 {
		return setIDNone // root here or outside, or an owner wisp cannot name
	}
	name, ok := userName(id.passwd, id.uid)
	if !ok {
		return setIDUserOnly
	}
	for _, g := range append([]int{id.gid}, id.groups...) {
		if g == id.overflow || !ownGroup(id.passwd, id.group, name, id.uid, g) {
			return setIDUserOnly
		}
	}
	return setIDBoth
}

// outsideUID maps uid through a uid_map ("inside outside count" lines) to
// the namespace above; an empty map (none could be read) leaves it as is.
func outsideUID(uidMap []byte, uid int) (int, bool) {
	if len(bytes.TrimSpace(uidMap)) == 0 {
		return uid, true
	}
	for line := range strings.Lines(string(uidMap)) {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		in, err1 := strconv.Atoi(f[0])
		out, err2 := strconv.Atoi(f[1])
		n, err3 := strconv.Atoi(f[2])
		if err1 == nil && err2 == nil && err3 == nil && uid >= in && uid-in < n {
			return out + uid - in, true
		}
	}
	return 0, false
}

// userName is the name /etc/passwd gives uid.
func userName(passwd []byte, uid int) (string, bool) {
	for _, f := range entries(passwd, 4) {
		if f[2] == strconv.Itoa(uid) {
			return f[0], true
		}
	}
	return "", false
}

// ownGroup reports whether gid is the person's alone: /etc/group names it
// after them with no other member, and no other account has it first.
func ownGroup(passwd, group []byte, name string, uid, gid int) bool {
	id := strconv.Itoa(gid)
	for _, f := range entries(passwd, 4) {
		if f[3] == id && f[2] != strconv.Itoa(uid) {
			return false
		}
	}
	found := false
	for _, f := range entries(group, 4) {
		if f[2] != id {
			continue
		}
		members := slices.DeleteFunc(strings.Split(f[3], ","), func(m string) bool { return m == "" || m == name })
		if f[0] != name || len(members) > 0 {
			return false
		}
		found = true
	}
	return found
}

// entries splits a passwd or group file into its lines' fields, keeping
// the lines with at least n.
func entries(data []byte, n int) [][]string {
	var out [][]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Split(sc.Text(), ":"); len(f) >= n && !strings.HasPrefix(f[0], "#") {
			out = append(out, f)
		}
	}
	return out
}

// setIDModes routes the mode syscalls to the rule's check; nothing for
// setIDBoth.
func (p *bpfProgram) setIDModes(rule setIDRule) {
	if rule == setIDBoth {
		return
	}
	for _, m := range modeSyscalls {
		p.jump(unix.BPF_JEQ, m.nr, fmt.Sprintf("mode%d", m.arg), "")
	}
}

// setIDChecks are the checks setIDModes routes to: one per argument that
// can hold a mode.
func (p *bpfProgram) setIDChecks(rule setIDRule) {
	if rule == setIDBoth {
		return
	}
	for _, arg := range []int{1, 2, 3} {
		label := fmt.Sprintf("mode%d", arg)
		if rule == setIDNone {
			p.maskedZero(label, argOffset(arg), unix.S_ISUID|unix.S_ISGID, "refuse")
			continue
		}
		p.labels[label] = len(p.insns)
		p.load(argOffset(arg))
		p.and(unix.S_ISGID | unix.S_IXOTH)
		p.jump(unix.BPF_JEQ, unix.S_ISGID|unix.S_IXOTH, "refuse", "allow")
	}
}

// setIDRing refuses io_uring, which creates files with a mode the filter
// cannot read, wherever a set-ID bit is refused.
func (p *bpfProgram) setIDRing(rule setIDRule) {
	if rule != setIDBoth {
		p.jump(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "refuse", "")
	}
}

// lockedACLs says the rule rests on a mode's execute bits, which an access
// list (the extended attribute system.posix_acl_access) changes without a
// chmod: setfacl -m o::x on a 2750 file the filter let through makes it
// set-group-ID for everyone. The filter cannot read an attribute's name,
// so there every extended attribute is refused, as without a view.
func (r setIDRule) lockedACLs() bool { return r == setIDUserOnly }
